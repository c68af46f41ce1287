import CSumiCodecs
import SumiKit

/// Encodes an image as 8-bit PNG with libpng: RGB when every pixel is opaque, straight RGBA
/// otherwise. `compression` is the zlib level 0–9 (default 4, with SUB/PAETH row filters: about as
/// small as ImageMagick's output on screenshots and photos, and faster).
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
