#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// An image kept compactly, row by row, for captures the stitch planner has decoded and will copy
/// rows from later: screen captures are mostly flat colour, so their rows as runs of equal pixels
/// take a small fraction of their pixels' memory and expand far faster than decoding the file again.
///
/// Each row is stored the smaller way: as runs (`count`, `pixel` word pairs), or as its pixels
/// (a photo's row, whose runs are single pixels); a row equal to the row above is not stored again.
/// Rows are read one at a time (`copyRow`), so the image itself is never expanded.
struct PixelRuns: Sendable {
    let width: Int
    let height: Int
    let metadata: ImageMetadata
    /// Runs and pixels of the stored rows.
    private let words: [UInt32]
    /// Per row, the word its content starts at; the top bit set: stored as pixels, not runs.
    private let rowStarts: [UInt32]

    /// The words and row index this image takes, in bytes.
    var bytes: Int { (words.count + rowStarts.count) * 4 }

    private static let pixelRow: UInt32 = 1 << 31

    /// The rows of `image`, or nil when they would take more than `limit` bytes. The words are
    /// reserved at the limit at once: a buffer that large is mapped on its own (`PixelMemory`), and
    /// the pages never written are never made resident.
    init?(_ image: Image, limit: Int) {
        let width = image.width, height = image.height
        guard width > 0, height > 0, height * 4 <= limit else { return nil }
        let maxWords = min((limit - height * 4) / 4, Int(PixelRuns.pixelRow) - 1)
        var words: [UInt32] = []
        words.reserveCapacity(min(maxWords, image.pixels.count / 4 + width))
        var rowStarts = [UInt32](repeating: 0, count: height)
        let complete: Bool = image.pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            let stride = width * 4
            for y in 0..<height {
                let row = y * stride
                if y > 0, memcmp(base + row, base + row - stride, stride) == 0 {
                    rowStarts[y] = rowStarts[y - 1]
                    continue
                }
                var runs = 1
                var previous = raw.loadUnaligned(fromByteOffset: row, as: UInt32.self)
                for x in 1..<width {
                    let pixel = raw.loadUnaligned(fromByteOffset: row + x * 4, as: UInt32.self)
                    if pixel != previous { runs += 1 }
                    previous = pixel
                }
                let asRuns = runs * 2 < width
                guard words.count + (asRuns ? runs * 2 : width) <= maxWords else { return false }
                rowStarts[y] = UInt32(words.count) | (asRuns ? 0 : PixelRuns.pixelRow)
                if !asRuns {
                    let at = words.count
                    words.append(contentsOf: repeatElement(0, count: width))
                    words.withUnsafeMutableBytes { $0.baseAddress.map { ($0 + at * 4).copyMemory(from: base + row, byteCount: stride) } }
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
            }
            return true
        }
        guard complete else { return nil }
        self.width = width
        self.height = height
        metadata = image.metadata
        self.words = words
        self.rowStarts = rowStarts
    }

    /// Writes row `y` (`width * 4` bytes) to `target`.
    func copyRow(_ y: Int, into target: UnsafeMutablePointer<UInt8>) {
        let start = rowStarts[y]
        let width = self.width
        words.withUnsafeBufferPointer { words in
            guard let base = words.baseAddress else { return }
            var w = Int(start & ~PixelRuns.pixelRow)
            if start & PixelRuns.pixelRow != 0 {
                UnsafeMutableRawPointer(target).copyMemory(from: base + w, byteCount: width * 4)
                return
            }
            target.withMemoryRebound(to: UInt32.self, capacity: width) { out in
                var x = 0
                while x < width {
                    let count = Int(words[w]), pixel = words[w + 1]
                    (out + x).update(repeating: pixel, count: count)
                    x += count
                    w += 2
                }
            }
        }
    }

    /// The image again, pixel for pixel.
    func image() -> Image {
        Image(width: width, height: height, metadata: metadata) { out in
            guard let base = out.baseAddress else { return }
            for y in 0..<height { copyRow(y, into: base + y * width * 4) }
        }
    }
}
