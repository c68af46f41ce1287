import SumiKit

/// One ISO base media file format box: its type, where its header starts and the byte range of its
/// contents (after the header, and after the version and flags of a full box when read as one).
///
/// Every read is bounds-checked against the box's own range; an error names the box and the byte
/// offset of its header, so a hostile file is reported where it lies.
struct ISOBox {
    /// The four-character type (`meta`, `iloc`…), printable characters only.
    let type: String
    /// The byte offset of the box header in the file.
    let offset: Int
    /// The contents.
    let payload: Range<Int>

    /// At most this many children in one box (libheif's own limit), so a box of empty children
    /// cannot make a reader loop for long.
    static let maxChildren = 20_000

    /// The boxes in `range` of `bytes`. A box whose size runs past the range is an error, unless
    /// `lenient` (the file's top level, where libheif also stops at the first box it cannot read).
    static func children(of bytes: [UInt8], in range: Range<Int>, parent: String, lenient: Bool = false) throws(StageError) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var at = range.lowerBound
        while at < range.upperBound {
            guard range.upperBound - at >= 8 else {
                if lenient { break }
                throw StageError("'\(parent)' box: \(range.upperBound - at) stray bytes at byte \(at)")
            }
            var size = Int(be32(bytes, at))
            let type = fourCC(bytes, at + 4)
            var header = 8
            if size == 1 {
                guard range.upperBound - at >= 16 else {
                    if lenient { break }
                    throw StageError("'\(type)' box at byte \(at) is truncated")
                }
                let large = UInt64(be32(bytes, at + 8)) << 32 | UInt64(be32(bytes, at + 12))
                size = large > UInt64(Int.max) ? Int.max : Int(large)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else {
                if lenient { break }
                throw StageError("'\(type)' box at byte \(at) declares \(size) bytes, but \(range.upperBound - at) remain in '\(parent)'")
            }
            guard boxes.count < maxChildren else { throw StageError("'\(parent)' box holds more than \(maxChildren) boxes") }
            boxes.append(ISOBox(type: type, offset: at, payload: (at + header)..<(at + size)))
            at += size
        }
        return boxes
    }

    /// The contents of a full box, after its version and flags, with those.
    func full(_ bytes: [UInt8]) throws(StageError) -> (version: Int, flags: Int, contents: ISOCursor) {
        var cursor = ISOCursor(bytes, self)
        let word = try cursor.u32()
        return (Int(word >> 24), Int(word & 0xFFFFFF), cursor)
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// Four bytes as a type name; bytes outside printable ASCII become `?`.
    static func fourCC(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<(at + 4)].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
