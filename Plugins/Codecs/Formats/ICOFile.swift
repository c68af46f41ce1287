import SumiKit

/// A Windows icon or cursor file's directory: its entries, each a PNG or a BMP image without its
/// file header (`ICODecoder`).
struct ICOFile {
    struct Entry {
        /// The directory's size (0 there means 256); the image's own header is what counts.
        var width: Int
        var height: Int
        var bitsPerPixel: Int
        var offset: Int
        var size: Int
        /// The position in the directory.
        var index: Int
    }

    let entries: [Entry]
    let isCursor: Bool

    /// Whether the first bytes start an icon (type 1) or cursor (type 2) directory with at least one
    /// entry that starts after the directory.
    static func plausible(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 22, bytes[0] == 0, bytes[1] == 0, bytes[2] == 1 || bytes[2] == 2, bytes[3] == 0 else { return false }
        let count = Int(bytes[4]) | Int(bytes[5]) << 8
        let firstOffset = Int(bytes[18]) | Int(bytes[19]) << 8 | Int(bytes[20]) << 16 | Int(bytes[21]) << 24
        return count > 0 && firstOffset >= 6 + 16 * count && bytes[9] == 0
    }

    init(_ bytes: [UInt8], name: String) throws(StageError) {
        guard Self.plausible(bytes) else { throw StageError("\(name): not an ICO or CUR file") }
        isCursor = bytes[2] == 2
        let count = Int(bytes[4]) | Int(bytes[5]) << 8
        guard 6 + 16 * count <= bytes.count else {
            throw StageError("\(name): truncated ICO data (a directory of \(count) entries needs \(6 + 16 * count) bytes, the file has \(bytes.count))")
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        var entries: [Entry] = []
        for index in 0..<count {
            let at = 6 + 16 * index
            let entry = Entry(width: bytes[at] == 0 ? 256 : Int(bytes[at]), height: bytes[at + 1] == 0 ? 256 : Int(bytes[at + 1]),
                              bitsPerPixel: isCursor ? 0 : u16(at + 6), offset: u32(at + 12), size: u32(at + 8), index: index)
            guard entry.offset >= 6 + 16 * count, entry.size > 0, entry.offset <= bytes.count, entry.size <= bytes.count - entry.offset else {
                throw StageError("\(name): ICO entry \(index + 1) lies outside the file (\(entry.size) bytes at \(entry.offset), the file has \(bytes.count))")
            }
            entries.append(entry)
        }
        self.entries = entries
    }

    /// The entry to show: the largest, then the deepest, then the first (as Pillow and most viewers
    /// choose).
    var largest: Entry {
        entries.max { a, b in
            (a.width * a.height, a.bitsPerPixel, -a.index) < (b.width * b.height, b.bitsPerPixel, -b.index)
        } ?? entries[0]
    }
}
