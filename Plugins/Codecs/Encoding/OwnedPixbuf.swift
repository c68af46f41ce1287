import CSumiCodecs
import CSumiPixels
import SumiKit

/// Owns a `GdkPixbuf` (RGBA, 8 bits) made for saving; unreferenced in `deinit`.
final class OwnedPixbuf {
    private let gdk: sumi_pixbuf_api
    private let pixbuf: OpaquePointer

    init(width: Int, height: Int, format: ImageFormat) throws(StageError) {
        gdk = try PixbufLibrary.functions(for: format)
        guard let pixbuf = gdk.new_pixbuf(SUMI_PIXBUF_COLORSPACE_RGB, 1, 8, Int32(width), Int32(height)) else {
            throw StageError("out of memory for a \(width)x\(height) image")
        }
        self.pixbuf = pixbuf
    }

    deinit { gdk.object_unref(UnsafeMutableRawPointer(pixbuf)) }

    /// Copies `image` in, un-premultiplied (gdk-pixbuf stores straight alpha).
    func fill(from image: Image) {
        let stride = Int(gdk.get_rowstride(pixbuf))
        guard let target = gdk.get_pixels(pixbuf) else { return }
        image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for y in 0..<image.height {
                sumi_unpremultiply(base + y * image.stride, target + y * stride, image.width)
            }
        }
    }

    /// Encodes with the gdk-pixbuf saver `type`, passing `iccProfile` as its `icc-profile` option.
    func save(type: String, iccProfile: [UInt8]? = nil) throws(StageError) -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        var error: UnsafeMutablePointer<sumi_gerror>?
        var encodedProfile: UnsafeMutablePointer<CChar>?
        if let iccProfile, !iccProfile.isEmpty {
            encodedProfile = iccProfile.withUnsafeBufferPointer { gdk.base64_encode($0.baseAddress, $0.count) }
        }
        defer { gdk.free(encodedProfile) }
        let saved = withOptions(encodedProfile) { keys, values in
            gdk.save_to_bufferv(pixbuf, &buffer, &size, type, keys, values, &error)
        }
        guard saved != 0, let buffer else {
            var detail = ""
            if let error {
                detail = error.pointee.message.map { ": " + String(cString: $0) } ?? ""
                gdk.error_free(error)
            }
            throw StageError("\(type.uppercased()) encoding failed\(detail)")
        }
        defer { gdk.free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(size)) {
            [UInt8](UnsafeBufferPointer(start: $0, count: Int(size)))
        }
    }

    /// Calls `body` with NULL-terminated option key and value arrays (empty without a profile).
    private func withOptions(_ profile: UnsafeMutablePointer<CChar>?,
                             _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                      UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32) -> Int32 {
        guard let profile else { return body(nil, nil) }
        return "icc-profile".withCString { key in
            var keys: [UnsafeMutablePointer<CChar>?] = [UnsafeMutablePointer(mutating: key), nil]
            var values: [UnsafeMutablePointer<CChar>?] = [profile, nil]
            return body(&keys, &values)
        }
    }
}
