import SumiKit

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
