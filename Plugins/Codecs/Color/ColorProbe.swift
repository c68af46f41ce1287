import CLcms2

/// An unoptimised floating-point lcms2 transform between two profiles, cheap to create (no lookup
/// tables are built): for checking that a profile converts and for comparing two spaces on a few
/// test colours. Freed in `deinit`.
final class ColorProbe {
    private let handle: cmsHTRANSFORM

    init?(from source: LcmsProfile, to target: LcmsProfile) {
        let format = sumi_lcms_type_rgb_dbl()
        let flags = cmsUInt32Number(cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE)
        guard let handle = lcms.cmsCreateTransform(source.handle, format, target.handle, format,
                                              cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags) else { return nil }
        self.handle = handle
    }

    deinit { lcms.cmsDeleteTransform(handle) }

    /// Converts RGB triples with channels in 0...1.
    func convert(_ rgb: [Double]) -> [Double] {
        var output = [Double](repeating: 0, count: rgb.count)
        rgb.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                lcms.cmsDoTransform(handle, input.baseAddress, out.baseAddress, cmsUInt32Number(rgb.count / 3))
            }
        }
        return output
    }
}
