#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// An image kept compactly as runs of equal pixels, for captures the stitch planner has decoded and
/// will copy rows from later: screen captures are mostly flat colour, so their runs take a small
/// fraction of their pixels' memory and expand far faster than decoding the file again.
///
/// Each row is a list of runs (`count`, `pixel`), or one entry saying it repeats the row above.
struct PixelRuns: Sendable {
    let width: Int
    let height: Int
    let metadata: ImageMetadata
    /// Pairs of words: a count (the top bit set: "the row above again"), then the pixel.
    private let words: [UInt32]

    /// The words this image's runs take, in bytes.
    var bytes: Int { words.count * 4 }

    private static let repeatRow: UInt32 = 1 << 31

    /// The runs of `image`, or nil when they would take more than `limit` bytes (a photo, whose
    /// runs are single pixels).
    init?(_ image: Image, limit: Int) {
        let width = image.width, height = image.height
        guard width > 0, height > 0, width < Int(PixelRuns.repeatRow) else { return nil }
        let maxWords = limit / 4
        var words: [UInt32] = []
        let complete: Bool = image.pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            let stride = width * 4
            for y in 0..<height {
                let row = y * stride
                if y > 0, memcmp(base + row, base + row - stride, stride) == 0 {
                    words.append(PixelRuns.repeatRow)
                    words.append(0)
                    if words.count > maxWords { return false }
                    continue
                }
                var x = 0
                while x < width {
                    let pixel = raw.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self)
                    var end = x + 1
                    while end < width && raw.loadUnaligned(fromByteOffset: row + end * 4, as: UInt32.self) == pixel { end += 1 }
                    words.append(UInt32(end - x))
                    words.append(pixel)
                    x = end
                }
                if words.count > maxWords { return false }
            }
            return true
        }
        guard complete else { return nil }
        self.width = width
        self.height = height
        metadata = image.metadata
        self.words = words
    }

    /// The image again, pixel for pixel.
    func image() -> Image {
        let width = self.width
        return Image(width: width, height: height, metadata: metadata) { out in
            let raw = UnsafeMutableRawBufferPointer(out)
            guard let base = raw.baseAddress else { return }
            let stride = width * 4
            words.withUnsafeBufferPointer { words in
                var w = 0, y = 0
                while w < words.count {
                    let row = y * stride
                    if words[w] == PixelRuns.repeatRow {
                        (base + row).copyMemory(from: base + row - stride, byteCount: stride)
                        w += 2
                    } else {
                        var offset = row
                        let end = row + stride
                        while offset < end {
                            let count = Int(words[w]), pixel = words[w + 1]
                            for i in 0..<count { raw.storeBytes(of: pixel, toByteOffset: offset + i * 4, as: UInt32.self) }
                            offset += count * 4
                            w += 2
                        }
                    }
                    y += 1
                }
            }
        }
    }
}
