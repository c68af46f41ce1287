import SumiCodecs
import SumiKit

/// Encodes an image's colour as baseline JPEG for `compression: jpeg`. Partly transparent pixels
/// keep their straight colour (their alpha goes to the page's soft mask), so nothing is blended twice.
enum JPEGReencoder {
    /// Refuses an image of this size, before anything is written.
    static func check(width: Int, height: Int) throws {
        guard width <= 65_500, height <= 65_500 else {
            throw StageError("image is \(width)x\(height); JPEG allows at most 65500 pixels a side (use compression flate)",
                             parameter: "compression")
        }
    }

    static func encode(_ image: Image, quality: Int, fullChroma: Bool = false) throws -> [UInt8] {
        guard !image.isOpaque else { return try JPEGEncoder.encode(image, quality: quality, fullChroma: fullChroma) }
        let source = image.pixels
        var straight = Image(width: image.width, height: image.height, metadata: image.metadata.applying(.pixels)) { out in
            var i = 0
            while i < source.count {
                let a = UInt32(source[i + 3])
                for c in 0..<3 {
                    out[i + c] = a == 0 ? 0 : UInt8(min(255, (UInt32(source[i + c]) * 255 + a / 2) / a))
                }
                out[i + 3] = 255
                i += 4
            }
        }
        straight.metadata.knownOpaque = true
        return try JPEGEncoder.encode(straight, quality: quality, fullChroma: fullChroma)
    }
}
