import CSumiCodecs
import SumiKit

/// Decodes still WebP images with libwebp, row by row into a stream or into the final buffer (a
/// ring as tall as the image, which libwebp writes directly).
enum WebPDecoder {
    /// The size and whether the image has alpha, from the header; a size outside `limits` refused.
    private static func header(_ data: UnsafeBufferPointer<UInt8>, name: String, limits: PixelLimits) throws -> (ImageHeader, hasAlpha: Bool) {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        guard sumi_webp_probe(data.baseAddress, data.count, &width, &height, &alpha) == 0 else {
            throw StageError("\(name): corrupt WebP header")
        }
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
