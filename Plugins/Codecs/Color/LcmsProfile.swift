import CLcms2
import Glibc
import SumiKit

/// One Little CMS profile handle, closed in `deinit`.
///
/// Made from ICC bytes (`init?(iccData:)`, nil when lcms2 cannot parse them), or built: sRGB, or an
/// RGB space from its primaries and transfer curve (Display P3, the spaces of PNG `cICP` and HEIF
/// `nclx` colour information).
public final class LcmsProfile {
    let handle: cmsHPROFILE

    private init(handle: cmsHPROFILE) { self.handle = handle }

    deinit { _ = lcms.cmsCloseProfile(handle) }

    /// Parses ICC bytes; nil when they are not a profile lcms2 can read.
    public convenience init?(iccData: [UInt8]) {
        guard iccData.count >= 132 else { return nil }
        let handle = iccData.withUnsafeBytes { lcms.cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let handle else { return nil }
        self.init(handle: handle)
    }

    /// The IEC 61966-2-1 sRGB profile, as lcms2 builds it.
    public static func sRGB() -> LcmsProfile {
        // cmsCreate_sRGBProfile only fails when memory is exhausted.
        LcmsProfile(handle: lcms.cmsCreate_sRGBProfile()!)
    }

    /// An RGB profile from CIE xy primaries and white point, with `curve` for all three channels.
    static func rgb(red: (Double, Double), green: (Double, Double), blue: (Double, Double),
                    white: (Double, Double), curve: TransferCurve, description: String) -> LcmsProfile? {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: red.0, y: red.1, Y: 1),
                                        Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
                                        Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        guard let tone = curve.toneCurve() else { return nil }
        defer { lcms.cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let handle = lcms.cmsCreateRGBProfile(&whitePoint, &primaries, &curves) else { return nil }
        let profile = LcmsProfile(handle: handle)
        profile.setDescription(description)
        return profile
    }

    private func setDescription(_ text: String) {
        guard let mlu = lcms.cmsMLUalloc(nil, 1) else { return }
        defer { lcms.cmsMLUfree(mlu) }
        _ = lcms.cmsMLUsetASCII(mlu, "en", "US", text)
        _ = lcms.cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
    }

    /// Whether the profile describes RGB data (the only kind Sumi's pixels are).
    public var isRGB: Bool { lcms.cmsGetColorSpace(handle) == cmsSigRgbData }

    /// For a matrix/TRC profile, whether it is sRGB in effect, read from its tags with no transform
    /// built (building one reverses tone curves over 4096 points, most of the cost of a tagged
    /// photo): colorants within 0.0025 of sRGB's (D50-adapted, as stored) and each curve within one
    /// 8-bit level of sRGB's at 33 points. Nil for LUT-based profiles and unreadable tags.
    func matrixShaperIsSRGB() -> Bool? {
        guard lcms.cmsIsMatrixShaper(handle) != 0 else { return nil }
        let colorants: [(cmsTagSignature, (Double, Double, Double))] = [
            (cmsSigRedColorantTag, (0.4361, 0.2225, 0.0139)),
            (cmsSigGreenColorantTag, (0.3851, 0.7169, 0.0971)),
            (cmsSigBlueColorantTag, (0.1431, 0.0606, 0.7141)),
        ]
        var matches = true
        for (tag, expected) in colorants {
            guard let raw = lcms.cmsReadTag(handle, tag) else { return nil }
            let xyz = raw.load(as: cmsCIEXYZ.self)
            if abs(xyz.X - expected.0) > 0.0025 || abs(xyz.Y - expected.1) > 0.0025 || abs(xyz.Z - expected.2) > 0.0025 {
                matches = false
            }
        }
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = lcms.cmsReadTag(handle, tag) else { return nil }
            for step in 0...32 {
                let encoded = Double(step) / 32
                let linear = Double(lcms.cmsEvalToneCurveFloat(OpaquePointer(curve), Float(encoded)))
                // Back to sRGB's encoding: the level sRGB would show for this light.
                let back = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(max(0, linear), 1 / 2.4) - 0.055
                if abs(back - encoded) * 255 > 1 { matches = false }
            }
        }
        return matches
    }

    /// The colour space signature as text ("RGB ", "GRAY", "CMYK", ...).
    var colorSpaceName: String {
        let signature = lcms.cmsGetColorSpace(handle).rawValue
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: signature >> UInt32($0)) }
        return String(decoding: bytes, as: UTF8.self).trimming(" ")
    }

    /// The profile's description ("Adobe RGB (1998)", ...), empty when it has none.
    public var name: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = lcms.cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        guard length > 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The profile serialised as ICC bytes.
    public func iccData() -> [UInt8]? {
        var size: cmsUInt32Number = 0
        guard lcms.cmsSaveProfileToMem(handle, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ lcms.cmsSaveProfileToMem(handle, $0.baseAddress, &size) }) != 0 else { return nil }
        return bytes
    }
}
