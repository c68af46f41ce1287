import CSumiCodecs
import CSumiPixels
import SumiKit

/// Encodes an image as PNG in the smallest layout that keeps every pixel:
/// - at most 256 distinct pixels: a palette (tRNS listing only the translucent entries, which come
///   first), or grey when they are all opaque greys; packed to 1, 2 or 4 bits when few enough;
/// - otherwise grey + alpha when every pixel is grey, else RGB when every pixel is opaque, else
///   straight RGBA.
///
/// `compression` is the zlib level 0–9 (default 4). Palette and packed data (libpng) are compressed
/// four levels higher (they are a third of the bytes or less), with None or Up chosen per row by
/// the runs each leaves; 8-bit grey gets libpng's per-row minimum-sum choice of all five filters.
/// Grey + alpha, RGB and RGBA are written by `sumi_png_rows` (the same choice of filter, and the
/// zlib strategy picked per band of 16 rows: filtered for photo bands, default for text and UI).
/// On phone captures, text or text with photos, this is below ImageMagick's size in less time.
public enum PNGEncoder {
    public static let defaultCompression = 4

    public static func encode(_ image: Image, compression: Int? = nil) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width < 1 << 31, image.height < 1 << 31 else {
            throw StageError("cannot encode a \(image.width)x\(image.height) image as PNG")
        }
        let level = Int32(min(9, max(0, compression ?? defaultCompression)))
        let opaque: Int32 = EncodedBuffer.isOpaque(image) ? 1 : 0
        return try image.pixels.withUnsafeBufferPointer { pixels in
            try EncodedBuffer.collect(format: "PNG") { out, size, error, errorSize in
                sumi_png_encode(pixels.baseAddress, Int32(image.width), Int32(image.height), image.stride,
                                level, opaque, out, size, error, errorSize)
            }
        }
    }

    /// Encodes rows as they come, with the bytes `encode` makes of the whole image. The layout
    /// depends on every pixel, so rows are held until it is certain: once the image has shown more
    /// than 256 distinct pixels, one that is not grey, and either is known to be opaque or has shown
    /// a translucent pixel, it can only be 8-bit RGB or RGBA — the held rows are written and the
    /// rest follow as they come (a photo decides within its first rows). An image that never
    /// decides (few colours, grey, or transparency unknown until the end) is encoded whole.
    public static func encode(rows stream: RowStream, compression: Int? = nil) throws -> [UInt8] {
        let shape = try stream.waitForStart()
        let width = shape.width, height = shape.height
        guard width > 0, height > 0, width < 1 << 31, height < 1 << 31 else {
            throw StageError("cannot encode a \(width)x\(height) image as PNG")
        }
        let level = Int32(min(9, max(0, compression ?? defaultCompression)))
        let knownOpaque = shape.metadata.knownOpaque
        let rowBytes = width * 4
        let palette = try PaletteNumbering()
        var indices = [UInt8](repeating: 0, count: width)
        var manyColours = false, grey = true, translucent = false
        // The rows held so far: the first `heldBytes` bytes of `held`, which becomes the image's pixels.
        var held = PixelBuffer()
        var heldBytes = 0
        var writer: OpaquePointer?
        defer { sumi_png_rows_abort(writer) }
        var message = [CChar](repeating: 0, count: 256)
        func failure() -> StageError {
            let text = DecoderMessage.text(ofBuffer: message)
            return StageError("PNG encoding failed\(text.isEmpty ? "" : ": " + text)")
        }
        var y = 0
        // A tall thin image is taken in bands of pixels, not of 16 rows (see `RowStream.thinBandPixels`).
        let band = min(max(16, RowStream.bandRows(width: width, height: height)), stream.capacity)
        while y < height {
            let end = min(height, y + band)
            _ = try stream.waitForRows(through: end)
            for row in y..<end {
                let pixels = UnsafeBufferPointer(start: UnsafePointer(stream.row(row)), count: rowBytes)
                if let writer {
                    guard message.withUnsafeMutableBufferPointer({
                        sumi_png_rows_write(writer, pixels.baseAddress, 1, rowBytes, $0.baseAddress, $0.count)
                    }) == 0 else { throw failure() }
                    continue
                }
                if !manyColours { manyColours = !indices.withUnsafeMutableBufferPointer { palette.number(pixels, into: $0) } }
                if grey { grey = sumi_is_grey(pixels.baseAddress, Int32(width)) != 0 }
                if !knownOpaque && !translucent { translucent = sumi_is_opaque(pixels.baseAddress, width) == 0 }
                // Room for the whole image at once (pages are taken only as rows arrive).
                if held.isEmpty { held = PixelBuffer(uninitializedCount: height * rowBytes) }
                held.withUnsafeMutableBufferPointer { all in
                    _ = UnsafeMutableBufferPointer(rebasing: all[heldBytes..<(heldBytes + rowBytes)]).update(fromContentsOf: pixels)
                }
                heldBytes += rowBytes
                guard manyColours && !grey && (knownOpaque || translucent) else { continue }
                writer = message.withUnsafeMutableBufferPointer {
                    sumi_png_rows_begin(Int32(width), Int32(height), level, knownOpaque ? 3 : 4, $0.baseAddress, $0.count)
                }
                guard let writer else { throw failure() }
                guard held.withUnsafeBufferPointer({ rows in
                    message.withUnsafeMutableBufferPointer {
                        sumi_png_rows_write(writer, rows.baseAddress, Int32(heldBytes / rowBytes), rowBytes, $0.baseAddress, $0.count)
                    }
                }) == 0 else { throw failure() }
                held = PixelBuffer()
                heldBytes = 0
            }
            stream.release(through: end)
            y = end
        }
        guard let finishing = writer else {
            return try encode(Image(width: width, height: height, pixels: held, metadata: shape.metadata), compression: compression)
        }
        writer = nil
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = message.withUnsafeMutableBufferPointer { sumi_png_rows_finish(finishing, &out, &size, $0.baseAddress, $0.count) }
        defer { sumi_free(out) }
        guard status == 0, let out else { throw failure() }
        return [UInt8](UnsafeBufferPointer(start: out, count: size))
    }
}
