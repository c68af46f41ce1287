import CSumiCodecs
import SumiKit

/// Owns a `GdkPixbufLoader` fed from memory; unreferenced in `deinit` (closed first if needed, so
/// gdk-pixbuf does not complain about an unfinished load).
final class PixbufLoader {
    private let gdk: sumi_pixbuf_api
    private let loader: OpaquePointer
    private let name: String
    private var closed = false

    /// A loader for the gdk-pixbuf module `type` ("gif", "bmp", "tiff").
    init(type: String, format: ImageFormat, name: String) throws(StageError) {
        let gdk: sumi_pixbuf_api
        do throws(StageError) { gdk = try PixbufLibrary.functions(for: format) } catch { throw StageError("\(name): \(error.message)") }
        var error: UnsafeMutablePointer<sumi_gerror>?
        guard let loader = gdk.loader_new_with_type(type, &error) else {
            throw PixbufLoader.failure(error, gdk: gdk, name: name, doing: "no \(type) loader in gdk-pixbuf")
        }
        self.gdk = gdk
        self.loader = loader
        self.name = name
    }

    deinit {
        if !closed { _ = gdk.loader_close(loader, nil) }
        gdk.object_unref(UnsafeMutableRawPointer(loader))
    }

    /// Feeds all of `bytes` and finishes the load; a truncated or corrupt file fails here.
    func load(_ bytes: [UInt8], format: ImageFormat) throws(StageError) {
        var error: UnsafeMutablePointer<sumi_gerror>?
        let written = bytes.withUnsafeBufferPointer { gdk.loader_write(loader, $0.baseAddress, $0.count, &error) }
        guard written != 0 else {
            throw PixbufLoader.failure(error, gdk: gdk, name: name, doing: "corrupt \(format.displayName) data")
        }
        closed = true
        guard gdk.loader_close(loader, &error) != 0 else {
            throw PixbufLoader.failure(error, gdk: gdk, name: name, doing: "truncated or corrupt \(format.displayName) data")
        }
    }

    /// The decoded (first) image as premultiplied RGBA.
    ///
    /// gdk-pixbuf promises straight alpha, but its TIFF loader hands over libtiff's RGBA interface
    /// output, which is already premultiplied: TIFF pixels are taken as they are.
    func image(format: ImageFormat) throws(StageError) -> Image {
        guard let pixbuf = gdk.loader_get_pixbuf(loader) else {
            throw StageError("\(name): \(format.displayName) data holds no image")
        }
        let width = Int(gdk.get_width(pixbuf)), height = Int(gdk.get_height(pixbuf))
        let channels = gdk.get_n_channels(pixbuf), stride = Int(gdk.get_rowstride(pixbuf))
        let hasAlpha = gdk.get_has_alpha(pixbuf) != 0
        guard width > 0, height > 0, gdk.get_bits_per_sample(pixbuf) == 8,
              channels == (hasAlpha ? 4 : 3), let pixels = gdk.read_pixels(pixbuf) else {
            throw StageError("\(name): unsupported \(format.displayName) pixel layout")
        }
        let metadata = ImageMetadata(sourceFormat: format.rawValue, sourcePath: name, knownOpaque: !hasAlpha)
        return Image(width: width, height: height, metadata: metadata) { out in
            sumi_import_rows(pixels, stride, channels, format == .tiff ? 1 : 0, Int32(width), Int32(height), out.baseAddress)
        }
    }

    private static func failure(_ error: UnsafeMutablePointer<sumi_gerror>?, gdk: sumi_pixbuf_api, name: String,
                                doing: String) -> StageError {
        guard let error else { return StageError("\(name): \(doing)") }
        defer { gdk.error_free(error) }
        let detail = error.pointee.message.map { String(cString: $0) } ?? ""
        return StageError("\(name): \(doing)\(detail.isEmpty ? "" : " (\(detail))")")
    }
}
