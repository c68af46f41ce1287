import CSumiCodecs
import SumiKit

/// gdk-pixbuf (TIFF output, and input of the formats its loaders add: `PixbufFormats`), opened on
/// the first file that needs it rather than at start-up: it brings GObject, GIO and their
/// dependencies. Its functions are called through the table `sumi_pixbuf_open` fills.
enum PixbufLibrary {
    /// gdk-pixbuf's functions (opened once, whichever thread asks first); `format` names what
    /// needed it in the error.
    static func functions(for format: String) throws(StageError) -> sumi_pixbuf_api {
        var error: UnsafePointer<CChar>?
        guard let api = sumi_pixbuf_open(&error) else {
            let detail = error.map { String(cString: $0) } ?? "unknown error"
            throw StageError("\(format) needs gdk-pixbuf (\(SUMI_PIXBUF_LIBRARY), Debian package "
                             + "libgdk-pixbuf-2.0-0), which could not be loaded: \(detail)")
        }
        return api.pointee
    }

    static func functions(for format: ImageFormat) throws(StageError) -> sumi_pixbuf_api {
        try functions(for: format.displayName)
    }
}
