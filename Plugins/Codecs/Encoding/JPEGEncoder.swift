import CSumiCodecs
import SumiKit

/// Encodes an image as baseline JPEG (libjpeg-turbo, 4:2:0). Transparent pixels are composed over
/// `background` (its alpha is ignored: JPEG has none); an opaque image is passed as RGBA untouched.
public enum JPEGEncoder {
    public static func encode(_ image: Image, quality: Int, background: Color = .white) throws -> [UInt8] {
        try check(image)
        let flatten: Int32 = EncodedBuffer.isOpaque(image) ? 0 : 1
        let q = Int32(min(100, max(1, quality)))
        return try image.pixels.withUnsafeBufferPointer { pixels in
            try EncodedBuffer.collect(format: "JPEG") { out, size, error, errorSize in
                sumi_jpeg_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), image.stride, q,
                                 0, flatten, background.red, background.green, background.blue, -1,
                                 out, size, error, errorSize)
            }
        }
    }

    static func check(_ image: Image) throws(StageError) {
        guard image.width > 0, image.height > 0 else {
            throw StageError("cannot encode an empty image (\(image.width)x\(image.height)) as JPEG")
        }
        guard image.width <= 65500, image.height <= 65500 else {
            throw StageError("image is \(image.width)x\(image.height); JPEG allows at most 65500 pixels a side")
        }
    }
}
