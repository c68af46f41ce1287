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

    /// Encodes an image whose rows are still arriving in `stream`, starting on the first rows while
    /// later ones are being produced.
    public static func encode(streaming stream: RowStream, quality: Int, background: Color = .white) throws -> [UInt8] {
        let (width, height, metadata) = try stream.waitForStart()
        guard let pixels = stream.streamedPixels else {
            return try encode(try stream.image(), quality: quality, background: background)
        }
        try check(width: width, height: height)
        final class Waiter {
            let stream: RowStream
            init(_ stream: RowStream) { self.stream = stream }
        }
        let waiter = Waiter(stream)
        let flatten: Int32 = metadata.knownOpaque ? 0 : 1
        let q = Int32(min(100, max(1, quality)))
        return try withExtendedLifetime(waiter) {
            try EncodedBuffer.collect(format: "JPEG") { out, size, error, errorSize in
                sumi_jpeg_encode_rows(pixels.baseAddress, Int32(width), Int32(height), width * 4, q,
                                      0, flatten, background.red, background.green, background.blue, -1,
                                      out, size, error, errorSize, { context, rows in
                    guard let context else { return -1 }
                    let waiter = Unmanaged<Waiter>.fromOpaque(context).takeUnretainedValue()
                    return (try? waiter.stream.waitForRows(Int(rows))).map(Int32.init) ?? -1
                }, Unmanaged.passUnretained(waiter).toOpaque())
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
