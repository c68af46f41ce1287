import CLcms2

/// The transfer curves (per ITU-T H.273 `TransferCharacteristics`) that Sumi can express in an ICC
/// profile.
enum TransferCurve {
    /// IEC 61966-2-1 (sRGB, Display P3).
    case sRGB
    /// ITU-R BT.709 / BT.601 / BT.2020 (10 and 12 bit).
    case bt709
    /// A pure power law.
    case gamma(Double)
    /// Linear light.
    case linear

    /// The curve from an H.273 code, or nil for those an 8-bit ICC profile cannot carry (PQ, HLG).
    init?(cicp code: Int) {
        switch code {
        case 13: self = .sRGB
        case 1, 6, 14, 15: self = .bt709
        case 4: self = .gamma(2.2)
        case 5: self = .gamma(2.8)
        case 8: self = .linear
        default: return nil
        }
    }

    /// A new lcms2 tone curve (the caller frees it).
    func toneCurve() -> OpaquePointer? {
        switch self {
        case .sRGB:
            var p: [cmsFloat64Number] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            return lcms.cmsBuildParametricToneCurve(nil, 4, &p)
        case .bt709:
            var p: [cmsFloat64Number] = [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
            return lcms.cmsBuildParametricToneCurve(nil, 4, &p)
        case .gamma(let g):
            return lcms.cmsBuildGamma(nil, g)
        case .linear:
            return lcms.cmsBuildGamma(nil, 1)
        }
    }
}
