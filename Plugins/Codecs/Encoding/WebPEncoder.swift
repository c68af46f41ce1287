import CSumiCodecs
import SumiKit

/// Encodes an image as lossy WebP with libwebp, keeping alpha.
public enum WebPEncoder {
    public static func encode(_ image: Image, quality: Int) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 16383, image.height <= 16383 else {
            throw StageError("image is \(image.width)x\(image.height); WebP allows 1 to 16383 pixels a side")
        }
        let q = Int32(min(100, max(1, quality)))
        return try image.pixels.withUnsafeBufferPointer { pixels in
            try EncodedBuffer.collect(format: "WebP") { out, size, error, errorSize in
                sumi_webp_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), image.stride, q,
                                 out, size, error, errorSize)
            }
        }
    }
}
