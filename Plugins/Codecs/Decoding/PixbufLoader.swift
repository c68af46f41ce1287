import CSumiCodecs
import CSumiPixels
import SumiKit

/// Owns a `GdkPixbufLoader` fed from memory; unreferenced in `deinit` (closed first if needed, so
/// gdk-pixbuf does not complain about an unfinished load). The size the loader announces is
/// checked against the pixel limits before the loader allocates its image.
final class PixbufLoader {
    private let gdk: sumi_pixbuf_api
    private let loader: OpaquePointer
    private let name: String
    private let type: String
    private let limit: UnsafeMutablePointer<sumi_pixbuf_size_limit>
    private let limits: PixelLimits
    private var closed = false

    /// A loader for the gdk-pixbuf module `type` ("ico", "tga", ...).
    init(type: String, name: String, limits: PixelLimits) throws(StageError) {
        let gdk: sumi_pixbuf_api
        do throws(StageError) { gdk = try PixbufLibrary.functions(for: type.uppercased()) } catch {
            throw StageError("\(name): \(error.message)")
        }
        var error: UnsafeMutablePointer<sumi_gerror>?
        guard let loader = gdk.loader_new_with_type(type, &error) else {
            throw PixbufLoader.failure(error, gdk: gdk, name: name, doing: "no \(type) loader in gdk-pixbuf")
        }
        self.gdk = gdk
        self.loader = loader
        self.name = name
        self.type = type.uppercased()
        limit = .allocate(capacity: 1)
        limit.initialize(to: sumi_pixbuf_size_limit(max_pixels: Int64(limits.maxPixels), width: 0, height: 0, refused: 0))
        self.limits = limits
        sumi_pixbuf_limit_size(loader, limit)
    }

    deinit {
        if !closed { _ = gdk.loader_close(loader, nil) }
        gdk.object_unref(UnsafeMutableRawPointer(loader))
        limit.deallocate()
    }

    /// Feeds all of `bytes` and finishes the load; a truncated or corrupt file, or one larger than
    /// max-pixels, fails here.
    func load(_ bytes: [UInt8]) throws(StageError) {
        var error: UnsafeMutablePointer<sumi_gerror>?
        let written = bytes.withUnsafeBufferPointer { gdk.loader_write(loader, $0.baseAddress, $0.count, &error) }
        try checkSize(error)
        guard written != 0 else {
            throw PixbufLoader.failure(error, gdk: gdk, name: name, doing: "corrupt \(type) data")
        }
        closed = true
        let finished = gdk.loader_close(loader, &error)
        try checkSize(error)
        guard finished != 0 else {
            throw PixbufLoader.failure(error, gdk: gdk, name: name, doing: "truncated or corrupt \(type) data")
        }
    }

    private func checkSize(_ error: UnsafeMutablePointer<sumi_gerror>?) throws(StageError) {
        guard limit.pointee.refused != 0 else { return }
        if let error { gdk.error_free(error) }
        try ImageHeader(width: Int(limit.pointee.width), height: Int(limit.pointee.height))
            .check(name: name, formatName: type, limits: limits)
        throw StageError("\(name): \(type) image of \(limit.pointee.width)x\(limit.pointee.height) refused")
    }

    /// The decoded (first) image as premultiplied RGBA (gdk-pixbuf's pixels are straight).
    func image() throws(StageError) -> Image {
        guard let pixbuf = gdk.loader_get_pixbuf(loader) else {
            throw StageError("\(name): \(type) data holds no image")
        }
        let width = Int(gdk.get_width(pixbuf)), height = Int(gdk.get_height(pixbuf))
        let channels = gdk.get_n_channels(pixbuf), stride = Int(gdk.get_rowstride(pixbuf))
        let hasAlpha = gdk.get_has_alpha(pixbuf) != 0
        guard width > 0, height > 0, gdk.get_bits_per_sample(pixbuf) == 8,
              channels == (hasAlpha ? 4 : 3), let pixels = gdk.read_pixels(pixbuf) else {
            throw StageError("\(name): unsupported \(type) pixel layout")
        }
        let metadata = ImageMetadata(sourceFormat: type.lowercased(), sourcePath: name, knownOpaque: !hasAlpha)
        return Image(width: width, height: height, metadata: metadata) { out in
            sumi_import_rows(pixels, stride, channels, 0, Int32(width), Int32(height), out.baseAddress)
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
