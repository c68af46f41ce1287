import SumiKit

/// Decodes run-length BMPs (RLE8, RLE4) a row at a time, top row first.
///
/// The codes are stored bottom row first and can only be read forwards, while rows are wanted top
/// first. One pass over the codes at the start checks that they cover every row (a kilobyte of
/// codes can describe a 13000×13000 image: no row is made for a file that is cut short) and keeps
/// where each group of `groupRows` stored rows begins in them. A wanted row's group is then decoded
/// from there into a buffer of that group (about 256 KB, whatever the image's size), and its rows
/// are handed out in the order wanted. The image costs its file and that buffer, never a buffer of
/// the whole image (a 7000×7000 RLE8 file of 400 KB would take 196 MB of RGBA, or 49 MB of indices).
///
/// As in gdk-pixbuf, pixels the codes skip (end of line, delta) stay transparent (Pillow paints them
/// with palette entry 0); any code that points outside the image is clipped.
final class BMPRunLengthDecoder {
    /// Where the codes are: the next code's offset, the column and the stored row it writes
    /// (0 is the bottom row).
    struct Place {
        var at: Int
        var x: Int
        var row: Int
    }

    /// Why a walk over the codes stopped.
    enum Stop {
        /// At the first code of a stored row at or past the one asked for.
        case reachedRow
        /// At the end-of-bitmap code.
        case endOfBitmap
        /// The data ends where the next code would be.
        case dataEnded
        /// The data ends inside a delta or a run of literal pixels.
        case cut
    }

    private let bytes: [UInt8]
    private let width: Int
    private let height: Int
    private let nibbles: Bool
    private let palette: [UInt32]
    /// Stored rows a group holds: about 64 Ki pixels.
    let groupRows: Int
    /// Where each group's codes begin (the first code at or past its first row).
    private var groupStarts: [Place] = []
    /// The decoded group (`groupRows × width` little-endian RGBA words) and which one it is.
    private var group: [UInt32] = []
    private var loadedGroup = -1

    /// Reads the codes once, refusing them when they end before the last row.
    init(_ bytes: [UInt8], header: BMPHeader, name: String) throws {
        guard !header.topDown else { throw StageError("\(name): corrupt BMP data (a run-length image must be stored bottom-up)") }
        self.bytes = bytes
        width = header.width
        height = header.height
        nibbles = header.compression == .runLength4
        palette = header.palette
        groupRows = max(1, min(height, (1 << 16) / max(1, width)))
        let rows = findGroupStarts(from: header.dataOffset)
        guard rows >= height else {
            throw StageError("\(name): truncated BMP data (the run-length data ends after \(rows) of \(height) rows)")
        }
    }

    /// Walks every code once, keeping each group's start; returns how many rows the codes cover
    /// (`height` when they reach the end-of-bitmap code or the last row, which some writers leave
    /// unterminated).
    private func findGroupStarts(from start: Int) -> Int {
        let groups = (height + groupRows - 1) / groupRows
        groupStarts.reserveCapacity(groups)
        var place = Place(at: start, x: 0, row: 0)
        for group in 0..<groups {
            groupStarts.append(place)
            let (next, stop) = walk(from: place, before: min((group + 1) * groupRows, height))
            place = next
            guard stop == .reachedRow else {
                // The codes stop here: later groups are left transparent.
                let ended = Place(at: bytes.count, x: 0, row: height)
                groupStarts += Array(repeating: ended, count: groups - groupStarts.count)
                switch stop {
                case .endOfBitmap: return height
                case .dataEnded: return place.row == height - 1 ? height : place.row
                case .cut, .reachedRow: return place.row
                }
            }
        }
        return height
    }

    /// Image row `y` (0 at the top) as premultiplied RGBA into `row` (`width × 4` bytes).
    func decodeRow(_ y: Int, into row: UnsafeMutablePointer<UInt8>) {
        let stored = height - 1 - y
        if stored / groupRows != loadedGroup { load(group: stored / groupRows) }
        group.withUnsafeBytes { words in
            guard let base = words.baseAddress else { return }
            row.update(from: base.assumingMemoryBound(to: UInt8.self) + (stored % groupRows) * width * 4, count: width * 4)
        }
    }

    /// Decodes the stored rows of group `index` into `group`.
    private func load(group index: Int) {
        if group.isEmpty { group = [UInt32](repeating: 0, count: groupRows * width) }
        let firstRow = index * groupRows
        group.withUnsafeMutableBufferPointer { pixels in
            pixels.update(repeating: 0)
            _ = walk(from: groupStarts[index], before: min(firstRow + groupRows, height), into: pixels, firstRow: firstRow)
        }
        loadedGroup = index
    }

    /// Follows the codes from `place` until the first one for stored row `stopRow` or later, writing
    /// the palette colours of rows from `firstRow` into `pixels` (rows of `width` words) when given.
    private func walk(from place: Place, before stopRow: Int, into pixels: UnsafeMutableBufferPointer<UInt32>? = nil,
                      firstRow: Int = 0) -> (Place, Stop) {
        var (at, x, row) = (place.at, place.x, place.row)
        func put(_ index: Int) {
            if let pixels, x < width, row >= firstRow { pixels[(row - firstRow) * width + x] = palette[index] }
            x += 1
        }
        while row < stopRow {
            guard at + 2 <= bytes.count else { return (Place(at: at, x: x, row: row), .dataEnded) }
            let count = Int(bytes[at]), code = Int(bytes[at + 1])
            at += 2
            if count > 0 {
                // A run: `count` pixels of one index (RLE4: two alternating indices).
                let first = x
                if pixels != nil {
                    for i in 0..<min(count, max(0, width - x)) { put(nibbles ? (i & 1 == 0 ? code >> 4 : code & 15) : code) }
                }
                x = first + count
                continue
            }
            switch code {
            case 0:
                x = 0
                row += 1
            case 1:
                return (Place(at: at, x: x, row: row), .endOfBitmap)
            case 2:
                // Delta: skip right and down.
                guard at + 2 <= bytes.count else { return (Place(at: at, x: x, row: row), .cut) }
                x += Int(bytes[at])
                row += Int(bytes[at + 1])
                at += 2
            default:
                // Absolute: `code` literal indices, padded to a 16-bit boundary.
                let length = nibbles ? (code + 1) / 2 : code
                guard at + length <= bytes.count else { return (Place(at: at, x: x, row: row), .cut) }
                if pixels != nil {
                    for i in 0..<code {
                        put(nibbles ? (i & 1 == 0 ? Int(bytes[at + i / 2]) >> 4 : Int(bytes[at + i / 2]) & 15) : Int(bytes[at + i]))
                    }
                } else {
                    x += code
                }
                at += (length + 1) & ~1
            }
        }
        return (Place(at: at, x: x, row: row), .reachedRow)
    }
}
