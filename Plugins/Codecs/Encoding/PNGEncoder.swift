import CSumiCodecs
import SumiKit

/// Encodes an image as PNG with libpng, in the smallest layout that keeps every pixel:
/// - at most 256 distinct pixels: a palette (tRNS listing only the translucent entries, which come
///   first), or grey when they are all opaque greys; packed to 1, 2 or 4 bits when few enough;
/// - otherwise grey + alpha when every pixel is grey, else RGB when every pixel is opaque, else
///   straight RGBA.
///
/// `compression` is the zlib level 0–9 (default 4). Palette and packed data are compressed four
/// levels higher (they are a third of the bytes or less), with None or Up chosen per row by the
/// runs each leaves; 8-bit grey and colour rows get libpng's per-row minimum-sum filter choice.
/// On screen captures this is well below ImageMagick's size in less time.
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
                                level, opaque, -1, out, size, error, errorSize)
            }
        }
    }
}
