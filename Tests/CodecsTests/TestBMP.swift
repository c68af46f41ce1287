/// BMP files written by the tests: the headers around pixel data (or run-length codes) the test
/// makes.
enum TestBMP {
    static func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    /// A BMP with a 40-byte (or `headerSize`) info header; `extra` (masks, palette, a gap) goes
    /// between the headers and the pixels, which start at `offset` (default: right after `extra`).
    /// A negative `height` stores the rows top first.
    static func file(width: Int, height: Int, bits: Int, compression: Int = 0, colours: Int = 0, headerSize: Int = 40,
                     extra: [UInt8], offset: Int? = nil, pixels: [UInt8]) -> [UInt8] {
        let start = offset ?? 14 + headerSize + extra.count
        var info = le32(headerSize) + le32(width) + le32(height) + le16(1) + le16(bits) + le32(compression)
            + le32(pixels.count) + le32(2835) + le32(2835) + le32(colours) + le32(0)
        info += [UInt8](repeating: 0, count: headerSize - info.count)
        return Array("BM".utf8) + le32(start + pixels.count) + le32(0) + le32(start) + info + extra + pixels
    }

    /// RGB colours as a BMP palette's blue, green, red, 0 entries.
    static func quads(_ palette: [[UInt8]]) -> [UInt8] { palette.flatMap { [$0[2], $0[1], $0[0], 0] } }
}
