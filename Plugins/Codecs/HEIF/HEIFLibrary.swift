import CSumiCodecs
import SumiKit

/// libheif, opened on the first HEIF or AVIF file rather than at start-up: it brings x265, libaom,
/// dav1d and libde265, whose loading and static set-up cost more than the rest of `sumi --version`.
/// Its functions are called through the table `sumi_heif_open` fills.
enum HEIFLibrary {
    /// The shared library's name.
    static let name = SUMI_HEIF_LIBRARY

    /// libheif's functions (opened and initialised once, whichever thread asks first).
    static func functions() throws(StageError) -> sumi_heif_api {
        var error: UnsafePointer<CChar>?
        guard let api = sumi_heif_open(&error) else {
            let detail = error.map { String(cString: $0) } ?? "unknown error"
            throw StageError("HEIF and AVIF need libheif (\(name), Debian package libheif1), which could not be loaded: \(detail)")
        }
        return api.pointee
    }

    /// Whether libheif can decode (`encode` false) or encode HEVC (HEIF) or AV1 (AVIF) images;
    /// false when the library cannot be loaded.
    static func has(_ format: ImageFormat, encode: Bool) -> Bool {
        guard let heif = try? functions() else { return false }
        let compression = format == .avif ? heif_compression_AV1 : heif_compression_HEVC
        return (encode ? heif.have_encoder_for_format(compression) : heif.have_decoder_for_format(compression)) != 0
    }
}
