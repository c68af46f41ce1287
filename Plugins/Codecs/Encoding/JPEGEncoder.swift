import CSumiCodecs
import SumiKit

/// Encodes an image as JPEG (libjpeg-turbo; baseline, or progressive with `progressive`; 4:2:0, or
/// 4:4:4 with Huffman tables optimised for the image with `fullChroma`). Transparent
/// pixels are composed over `background` (its alpha is ignored: JPEG has none); an opaque image is
/// passed as RGBA untouched.
public enum JPEGEncoder {
    /// `optimize: false` leaves a 4:4:4 image's Huffman tables the standard ones (one pass instead of
    /// two: the same pixels once decoded, more bytes; for a trial encoding whose bytes are not kept).
    public static func encode(_ image: Image, quality: Int, background: Color = .white, fullChroma: Bool = false,
                              progressive: Bool = false, optimize: Bool = true) throws -> [UInt8] {
        try check(image)
        let flatten: Int32 = EncodedBuffer.isOpaque(image) ? 0 : 1
        let q = Int32(min(100, max(1, quality)))
        return try image.pixels.withUnsafeBufferPointer { pixels in
            try EncodedBuffer.collect(format: "JPEG") { out, size, error, errorSize in
                sumi_jpeg_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), image.stride, q,
                                 (fullChroma ? SUMI_JPEG_FULL_CHROMA : 0) | (fullChroma && optimize ? SUMI_JPEG_OPTIMIZE : 0)
                                 | (progressive ? SUMI_JPEG_PROGRESSIVE : 0), flatten, background.red, background.green, background.blue,
                                 out, size, error, errorSize)
            }
        }
    }

    /// Encodes an image whose rows are still arriving in `stream`, band by band, releasing each band
    /// once libjpeg has taken it. Opaque unless the side data says so (`KnownOpaque`): then the rows
    /// are flattened onto `background`, which leaves opaque pixels as they are.
    public static func encode(rows stream: RowStream, quality: Int, background: Color = .white) throws -> [UInt8] {
        let shape = try stream.waitForStart()
        try check(width: shape.width, height: shape.height)
        let flatten: Int32 = shape.metadata.knownOpaque ? 0 : 1
        let q = Int32(min(100, max(1, quality)))
        return try RingAccess.withRing(stream, as: .consumer) { ring in
            try EncodedBuffer.collect(format: "JPEG") { out, size, error, errorSize in
                sumi_jpeg_encode_ring(ring, Int32(shape.width), Int32(shape.height), q, 0, flatten,
                                      background.red, background.green, background.blue, out, size, error, errorSize)
            }
        }
    }

    static func check(_ image: Image) throws(StageError) {
        try check(width: image.width, height: image.height)
    }

    static func check(width: Int, height: Int) throws(StageError) {
        guard width > 0, height > 0 else {
            throw StageError("cannot encode an empty image (\(width)x\(height)) as JPEG")
        }
        guard width <= 65500, height <= 65500 else {
            throw StageError("image is \(width)x\(height); JPEG allows at most 65500 pixels a side")
        }
    }
}
