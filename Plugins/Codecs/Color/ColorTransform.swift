import CLcms2

/// An lcms2 transform between two RGB profiles on 8-bit RGBA (alpha carried through), relative
/// colorimetric, freed in `deinit`. Made with `cmsFLAGS_NOCACHE` so bands of one image can be
/// converted on several threads at once.
final class ColorTransform: @unchecked Sendable {
    private let handle: cmsHTRANSFORM

    init?(from source: LcmsProfile, to target: LcmsProfile) {
        let format = sumi_lcms_type_rgba_8()
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA)
        guard let handle = lcms.cmsCreateTransform(source.handle, format, target.handle, format,
                                              cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags) else { return nil }
        self.handle = handle
    }

    deinit { lcms.cmsDeleteTransform(handle) }

    /// Converts `pixels` straight RGBA pixels in place.
    func apply(_ buffer: UnsafeMutableRawPointer, pixels: Int) {
        lcms.cmsDoTransform(handle, buffer, buffer, cmsUInt32Number(pixels))
    }
}
