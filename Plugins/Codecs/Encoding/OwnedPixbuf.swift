import CGdkPixbuf
import CSumiCodecs
import SumiKit

/// Owns a `GdkPixbuf` (RGBA, 8 bits) made for saving; unreferenced in `deinit`.
final class OwnedPixbuf {
    private let pixbuf: OpaquePointer

    init(width: Int, height: Int) throws(StageError) {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 1, 8, Int32(width), Int32(height)) else {
            throw StageError("out of memory for a \(width)x\(height) image")
        }
        self.pixbuf = pixbuf
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }

    /// Copies `image` in, un-premultiplied (gdk-pixbuf stores straight alpha).
    func fill(from image: Image) {
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard let target = gdk_pixbuf_get_pixels(pixbuf) else { return }
        image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for y in 0..<image.height {
                sumi_unpremultiply(base + y * image.stride, target + y * stride, image.width)
            }
        }
    }

    /// Encodes with the gdk-pixbuf saver `type`, passing `iccProfile` as its `icc-profile` option.
    func save(type: String, iccProfile: [UInt8]? = nil) throws(StageError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        var encodedProfile: UnsafeMutablePointer<gchar>?
        if let iccProfile, !iccProfile.isEmpty {
            encodedProfile = iccProfile.withUnsafeBufferPointer { g_base64_encode($0.baseAddress, gsize($0.count)) }
        }
        defer { g_free(encodedProfile) }
        let saved = withOptions(encodedProfile) { keys, values in
            gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, keys, values, &error)
        }
        guard saved != 0, let buffer else {
            var detail = ""
            if let error {
                detail = error.pointee.message.map { ": " + String(cString: $0) } ?? ""
                g_error_free(error)
            }
            throw StageError("\(type.uppercased()) encoding failed\(detail)")
        }
        defer { g_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
            [UInt8](UnsafeBufferPointer(start: $0, count: Int(size)))
        }
    }

    /// Calls `body` with NULL-terminated option key and value arrays (empty without a profile).
    private func withOptions(_ profile: UnsafeMutablePointer<gchar>?,
                             _ body: (UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?,
                                      UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>?) -> gboolean) -> gboolean {
        guard let profile else { return body(nil, nil) }
        return "icc-profile".withCString { key in
            var keys: [UnsafeMutablePointer<gchar>?] = [UnsafeMutablePointer(mutating: key), nil]
            var values: [UnsafeMutablePointer<gchar>?] = [profile, nil]
            return body(&keys, &values)
        }
    }
}
