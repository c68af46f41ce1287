import SumiKit

/// A small GIF written by the test: one frame (and any `later` ones) whose LZW data holds every pixel
/// as a literal code (a clear code every 250 pixels keeps the code size at 9 bits), so any layout can
/// be made.
struct TestGIF {
    var screenWidth: Int
    var screenHeight: Int
    var globalTable: [[UInt8]]?
    var localTable: [[UInt8]]?
    var left = 0, top = 0
    var width: Int
    var height: Int
    /// Palette indices, rows in the order they are stored (interlaced files: pass order).
    var indices: [UInt8]
    var interlaced = false
    var transparentIndex: Int?
    /// The graphic control block's disposal method (0: none given).
    var disposal = 0
    /// Frames after this one: their own place, tables, indices, transparency and disposal (their
    /// screen and global table are not written).
    var later: [TestGIF] = []

    /// The colour table field of a flags byte for `table` (padded to a power of two).
    private static func tableBits(_ table: [[UInt8]]) -> Int {
        var bits = 0
        while 2 << bits < table.count { bits += 1 }
        return bits
    }

    private static func table(_ table: [[UInt8]]) -> [UInt8] {
        let size = 2 << tableBits(table)
        return (0..<size).flatMap { $0 < table.count ? table[$0] : [0, 0, 0] }
    }

    /// An opaque image of at most 256 colours as one frame on a screen of its size (global table).
    static func of(_ image: Image) -> TestGIF {
        var table: [[UInt8]] = [], index: [[UInt8]: UInt8] = [:], indices: [UInt8] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = image.color(x: x, y: y), rgb = [c.red, c.green, c.blue]
                if index[rgb] == nil { precondition(table.count < 256, "more than 256 colours"); index[rgb] = UInt8(table.count); table.append(rgb) }
                indices.append(index[rgb]!)
            }
        }
        return TestGIF(screenWidth: image.width, screenHeight: image.height, globalTable: table,
                       width: image.width, height: image.height, indices: indices)
    }

    func bytes() -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        var out = Array("GIF89a".utf8) + le16(screenWidth) + le16(screenHeight)
        if let globalTable {
            out += [0x80 | UInt8(TestGIF.tableBits(globalTable)), 0, 0] + TestGIF.table(globalTable)
        } else {
            out += [0, 0, 0]
        }
        for frame in [self] + later { out += frame.frameBytes() }
        return out + [0x3B]
    }

    /// The graphic control block (when there is something to say), descriptor, local table and data.
    private func frameBytes() -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        var out: [UInt8] = []
        if transparentIndex != nil || disposal != 0 {
            out += [0x21, 0xF9, 4, UInt8(disposal << 2) | (transparentIndex == nil ? 0 : 1), 0, 0, UInt8(transparentIndex ?? 0), 0]
        }
        var flags: UInt8 = interlaced ? 0x40 : 0
        if let localTable { flags |= 0x80 | UInt8(TestGIF.tableBits(localTable)) }
        out += [0x2C] + le16(left) + le16(top) + le16(width) + le16(height) + [flags]
        if let localTable { out += TestGIF.table(localTable) }
        // LZW, minimum code size 8: clear = 256, end = 257, 9-bit codes.
        var codes = [256]
        for (i, index) in indices.enumerated() {
            if i > 0 && i % 250 == 0 { codes.append(256) }
            codes.append(Int(index))
        }
        codes.append(257)
        var packed = [UInt8](), buffer = 0, count = 0
        for code in codes {
            buffer |= code << count
            count += 9
            while count >= 8 { packed.append(UInt8(buffer & 255)); buffer >>= 8; count -= 8 }
        }
        if count > 0 { packed.append(UInt8(buffer & 255)) }
        out.append(8)
        for start in stride(from: 0, to: packed.count, by: 255) {
            let block = packed[start..<min(packed.count, start + 255)]
            out += [UInt8(block.count)] + block
        }
        return out + [0]
    }
}
