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

/// Reads big-endian fields inside one box, never past its end.
struct ISOCursor {
    let bytes: [UInt8]
    let box: ISOBox
    var at: Int

    init(_ bytes: [UInt8], _ box: ISOBox) {
        self.bytes = bytes
        self.box = box
        at = box.payload.lowerBound
    }

    var remaining: Int { box.payload.upperBound - at }

    /// An error naming this box and where it starts.
    func error(_ message: String) -> StageError {
        StageError("'\(box.type)' box at byte \(box.offset): \(message)")
    }

    mutating func need(_ count: Int) throws(StageError) {
        guard count <= remaining else { throw error("truncated (\(count) more bytes needed at byte \(at))") }
    }

    /// An unsigned big-endian field of `size` bytes (0, 1, 2, 4 or 8; 0 reads nothing and gives 0).
    mutating func uint(_ size: Int) throws(StageError) -> UInt64 {
        try need(size)
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[at + i]) }
        at += size
        return value
    }

    mutating func u8() throws(StageError) -> Int { Int(try uint(1)) }
    mutating func u16() throws(StageError) -> Int { Int(try uint(2)) }
    mutating func u32() throws(StageError) -> UInt32 { UInt32(try uint(4)) }

    /// A field of `size` bytes as an `Int`, refused when it does not fit (an 8-byte offset).
    mutating func int(_ size: Int) throws(StageError) -> Int {
        let value = try uint(size)
        guard value <= UInt64(Int.max) else { throw error("value \(value) out of range at byte \(at - size)") }
        return Int(value)
    }

    mutating func fourCC() throws(StageError) -> String {
        try need(4)
        defer { at += 4 }
        return ISOBox.fourCC(bytes, at)
    }

    /// A NUL-terminated string (or the rest of the box when it has no NUL).
    mutating func cString() -> String {
        let end = bytes[at..<box.payload.upperBound].firstIndex(of: 0) ?? box.payload.upperBound
        defer { at = min(box.payload.upperBound, end + 1) }
        return String(decoding: bytes[at..<end], as: UTF8.self)
    }
}
