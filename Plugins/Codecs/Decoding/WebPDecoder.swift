import CSumiCodecs
import SumiKit

/// Decodes still WebP images with libwebp straight into the final buffer.
enum WebPDecoder {
    static func decode(_ bytes: [UInt8], name: String, maxPixels: Int) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
            guard sumi_webp_probe(data.baseAddress, data.count, &width, &height, &alpha) == 0 else {
                throw StageError("\(name): corrupt WebP header")
            }
            let header = ImageHeader(width: Int(width), height: Int(height))
            try header.check(name: name, format: .webp, maxPixels: maxPixels)
            let metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name,
                                         knownOpaque: alpha == 0)
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
            var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
            guard sumi_webp_probe(data.baseAddress, data.count, &width, &height, &alpha) == 0 else {
                throw StageError("\(name): corrupt WebP header")
            }
            let header = ImageHeader(width: Int(width), height: Int(height))
            try header.check(name: name, format: .webp, maxPixels: maxPixels)
            var metadata = ImageMetadata(sourceFormat: ImageFormat.webp.rawValue, sourcePath: name, knownOpaque: alpha == 0)
            MetadataReader.read(bytes, format: .webp).apply(to: &metadata, warn: { warn("\(name): \($0)") })
            try stream.begin(ImageShape(width: header.width, height: header.height, metadata: metadata))
            var message = [CChar](repeating: 0, count: 256)
            let status = RingAccess.withRing(stream, as: .producer) { ring in
                message.withUnsafeMutableBufferPointer {
                    sumi_webp_decode_ring(data.baseAddress, data.count, width, height, alpha, ring, $0.baseAddress, $0.count)
                }
            }
            guard status == 0 else { throw StageError("\(name): \(DecoderMessage.text(ofBuffer: message))") }
        }
    }
}
