import CSumiCodecs
import SumiKit

/// Decodes still WebP images with libwebp, row by row into a stream or into the final buffer (a
/// ring as tall as the image, which libwebp writes directly); an animation's frame (the first
/// unless asked) whole, composited on its canvas by libwebpdemux, opened on the first animation.
enum WebPDecoder {
    static func isAnimated(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { sumi_webp_is_animated($0.baseAddress, $0.count) != 0 }
    }

    /// Frame `frame` (from 1) of an animated WebP; the canvas size is checked before any pixel.
    static func decodeAnimation(_ bytes: [UInt8], name: String, limits: PixelLimits, frame: Int) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            var width: Int32 = 0, height: Int32 = 0, frames: Int32 = 0
            var message = [CChar](repeating: 0, count: 256)
            guard message.withUnsafeMutableBufferPointer({
                sumi_webp_animation_info(data.baseAddress, data.count, &width, &height, &frames, $0.baseAddress, $0.count)
            }) == 0 else { throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))") }
            try ImageHeader(width: Int(width), height: Int(height)).check(name: name, format: .webp, limits: limits)
            guard frame <= Int(frames) else {
                throw StageError.invalidParameter("frame", "\(name) has \(frames) frame\(frames == 1 ? "" : "s"); frame=\(frame) does not exist")
            }
            let metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name)
            return try Image(width: Int(width), height: Int(height), metadata: metadata) { out in
                guard message.withUnsafeMutableBufferPointer({
                    sumi_webp_animation_frame(data.baseAddress, data.count, Int32(frame - 1), out.baseAddress, out.count,
                                              $0.baseAddress, $0.count)
                }) == 0 else { throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))") }
            }
        }
    }

    /// The size and whether the image has alpha, from the header; a size outside `limits` refused.
    private static func header(_ data: UnsafeBufferPointer<UInt8>, name: String, limits: PixelLimits) throws -> (ImageHeader, hasAlpha: Bool) {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        var message = [CChar](repeating: 0, count: 256)
        guard message.withUnsafeMutableBufferPointer({
            sumi_webp_probe(data.baseAddress, data.count, &width, &height, &alpha, $0.baseAddress, $0.count)
        }) == 0 else { throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))") }
        let header = ImageHeader(width: Int(width), height: Int(height))
        try header.check(name: name, format: .webp, limits: limits)
        return (header, alpha != 0)
    }

    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            let (header, hasAlpha) = try header(data, name: name, limits: limits)
            let height = Int32(header.height)
            let metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name,
                                         knownOpaque: !hasAlpha)
            return try Image(width: header.width, height: header.height, metadata: metadata) { out in
                guard let base = out.baseAddress else { throw StageError("\(name): empty WebP image") }
                var ring = sumi_whole_ring(base, header.width * 4, height, height)
                try decode(data, header: header, hasAlpha: hasAlpha, name: name, ring: &ring)
            }
        }
    }

    /// Decodes a still WebP into `stream` row by row as libwebp finishes them, with the pixels and
    /// side data of the whole decode.
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, into stream: RowStream,
                       warn: (String) -> Void) throws {
        try bytes.withUnsafeBufferPointer { data in
            let (header, hasAlpha) = try header(data, name: name, limits: limits)
            var metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name, knownOpaque: !hasAlpha)
            MetadataReader.read(bytes, format: .webp).apply(to: &metadata, warn: { warn("\(name): \($0)") })
            try stream.begin(ImageShape(width: header.width, height: header.height, metadata: metadata))
            try RingAccess.withRing(stream, as: .producer) { try decode(data, header: header, hasAlpha: hasAlpha, name: name, ring: $0) }
        }
    }

    /// The one decode loop (libwebp's rows into `ring`), for a whole image and a stream alike.
    private static func decode(_ data: UnsafeBufferPointer<UInt8>, header: ImageHeader, hasAlpha: Bool, name: String,
                               ring: UnsafePointer<sumi_ring>) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer {
            sumi_webp_decode_ring(data.baseAddress, data.count, Int32(header.width), Int32(header.height), hasAlpha ? 1 : 0,
                                  ring, $0.baseAddress, $0.count)
        }
        guard status == 0 else { throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))") }
    }
}
