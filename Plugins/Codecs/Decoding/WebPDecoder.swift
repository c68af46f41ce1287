import CSumiCodecs
import SumiKit

/// Decodes still WebP images with libwebp: whole, straight into the final buffer, or row by row
/// into a stream.
enum WebPDecoder {
    /// The size and whether the image has alpha, from the header; a size over `maxPixels` refused.
    private static func header(_ data: UnsafeBufferPointer<UInt8>, name: String, maxPixels: Int) throws -> (ImageHeader, hasAlpha: Bool) {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        guard sumi_webp_probe(data.baseAddress, data.count, &width, &height, &alpha) == 0 else {
            throw StageError("\(name): corrupt WebP header")
        }
        let header = ImageHeader(width: Int(width), height: Int(height))
        try header.check(name: name, format: .webp, maxPixels: maxPixels)
        return (header, alpha != 0)
    }

    static func decode(_ bytes: [UInt8], name: String, maxPixels: Int) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            let (header, hasAlpha) = try header(data, name: name, maxPixels: maxPixels)
            let width = Int32(header.width), height = Int32(header.height)
            let metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name,
                                         knownOpaque: !hasAlpha)
            return try Image(width: header.width, height: header.height, metadata: metadata) { out in
                var message = [CChar](repeating: 0, count: 256)
                guard sumi_webp_decode(data.baseAddress, data.count, out.baseAddress, width, height,
                                       &message, message.count) == 0 else {
                    throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))")
                }
            }
        }
    }

    /// Decodes a still WebP into `stream` row by row as libwebp finishes them, with the pixels and
    /// side data of the whole decode.
    static func decode(_ bytes: [UInt8], name: String, maxPixels: Int, into stream: RowStream,
                       warn: (String) -> Void) throws {
        try bytes.withUnsafeBufferPointer { data in
            let (header, hasAlpha) = try header(data, name: name, maxPixels: maxPixels)
            var metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name, knownOpaque: !hasAlpha)
            MetadataReader.read(bytes, format: .webp).apply(to: &metadata, warn: { warn("\(name): \($0)") })
            try stream.begin(ImageShape(width: header.width, height: header.height, metadata: metadata))
            var message = [CChar](repeating: 0, count: 256)
            let status = RingAccess.withRing(stream, as: .producer) { ring in
                message.withUnsafeMutableBufferPointer {
                    sumi_webp_decode_ring(data.baseAddress, data.count, Int32(header.width), Int32(header.height), hasAlpha ? 1 : 0,
                                          ring, $0.baseAddress, $0.count)
                }
            }
            guard status == 0 else { throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))") }
        }
    }
}
