/// A TrueType font of two glyphs that draw nothing (`.notdef` and one blank glyph, each half an em
/// wide), embedded under the invisible text of a recognised page: readers need a font to place
/// text and to let it be selected, and this one costs a few hundred bytes. Every character code maps
/// to the blank glyph (the CIDFont's `CIDToGIDMap`); what the codes mean comes from the ToUnicode map.
///
/// The tables are the ones a PDF's embedded TrueType needs (`head`, `hhea`, `maxp`, `hmtx`, `loca`,
/// `glyf`) with `cmap`, `name` and `post` for readers that load it as a font file of its own.
enum GlyphlessFont {
    /// Font units per em.
    static let unitsPerEm = 1000
    /// Every glyph's advance, in font units: half an em.
    static let advance = 500

    /// The font file.
    static let bytes: [UInt8] = build()

    private static func build() -> [UInt8] {
        var head = Bytes()
        head.u32(0x0001_0000); head.u32(0x0001_0000)   // version, fontRevision
        head.u32(0)                                      // checkSumAdjustment, set below
        head.u32(0x5F0F_3CF5); head.u16(0b1011)          // magic; baseline and left side bearing at 0, integer scaling
        head.u16(UInt16(unitsPerEm))
        head.zeros(16)                                   // created, modified
        head.i16(0); head.i16(0); head.i16(Int16(advance)); head.i16(Int16(unitsPerEm))   // bounding box
        head.u16(0); head.u16(8); head.i16(2)            // macStyle, lowestRecPPEM, fontDirectionHint
        head.i16(0); head.i16(0)                         // short loca offsets, glyph data format

        var hhea = Bytes()
        hhea.u32(0x0001_0000)
        hhea.i16(Int16(unitsPerEm)); hhea.i16(0); hhea.i16(0)    // ascender, descender, line gap
        hhea.u16(UInt16(advance)); hhea.i16(0); hhea.i16(0); hhea.i16(0)
        hhea.i16(1); hhea.i16(0); hhea.i16(0)            // caret: upright
        hhea.zeros(8)
        hhea.i16(0); hhea.u16(2)                          // metric format, two horizontal metrics

        var maxp = Bytes()
        maxp.u32(0x0001_0000); maxp.u16(2)                // version 1.0, two glyphs
        maxp.zeros(4 * 2); maxp.u16(2); maxp.zeros(8 * 2) // no points or contours; two zones

        var hmtx = Bytes()
        for _ in 0..<2 { hmtx.u16(UInt16(advance)); hmtx.i16(0) }

        var loca = Bytes()
        for _ in 0..<3 { loca.u16(0) }                    // both glyphs empty

        var cmap = Bytes()                                // Windows Unicode, format 4: only the final segment
        cmap.u16(0); cmap.u16(1); cmap.u16(3); cmap.u16(1); cmap.u32(12)
        cmap.u16(4); cmap.u16(24); cmap.u16(0); cmap.u16(2); cmap.u16(2); cmap.u16(0); cmap.u16(0)
        cmap.u16(0xFFFF); cmap.u16(0); cmap.u16(0xFFFF); cmap.i16(1); cmap.u16(0)

        var name = Bytes()
        name.u16(0); name.u16(0); name.u16(6)             // no names

        var post = Bytes()
        post.u32(0x0003_0000); post.u32(0)                // version 3: no glyph names; upright
        post.i16(-100); post.i16(50); post.u32(1)         // underline; fixed pitch
        post.zeros(16)

        let tables: [(tag: String, data: [UInt8])] = [
            ("cmap", cmap.data), ("glyf", []), ("head", head.data), ("hhea", hhea.data), ("hmtx", hmtx.data),
            ("loca", loca.data), ("maxp", maxp.data), ("name", name.data), ("post", post.data),
        ]
        var file = Bytes()
        file.u32(0x0001_0000); file.u16(UInt16(tables.count))
        file.u16(128); file.u16(3); file.u16(UInt16(tables.count * 16 - 128))   // binary search over 9 records
        var offset = 12 + 16 * tables.count
        var body: [UInt8] = []
        for table in tables {
            file.data.append(contentsOf: Array(table.tag.utf8))
            file.u32(checksum(table.data)); file.u32(UInt32(offset)); file.u32(UInt32(table.data.count))
            let padded = table.data + [UInt8](repeating: 0, count: (4 - table.data.count % 4) % 4)
            body += padded
            offset += padded.count
        }
        var font = file.data + body
        let headOffset = Int(font[12 + 16 * 2 + 8]) << 24 | Int(font[12 + 16 * 2 + 9]) << 16
            | Int(font[12 + 16 * 2 + 10]) << 8 | Int(font[12 + 16 * 2 + 11])
        let adjustment = 0xB1B0_AFBA &- checksum(font)
        for i in 0..<4 { font[headOffset + 8 + i] = UInt8(truncatingIfNeeded: adjustment >> (24 - 8 * UInt32(i))) }
        return font
    }

    /// The sum of the data as big-endian 32-bit words (zero-padded), modulo 2³².
    static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var i = 0
        while i < data.count {
            var word: UInt32 = 0
            for j in 0..<4 { word = word << 8 | UInt32(i + j < data.count ? data[i + j] : 0) }
            sum &+= word
            i += 4
        }
        return sum
    }

    /// Big-endian bytes.
    private struct Bytes {
        var data: [UInt8] = []
        mutating func u16(_ v: UInt16) { data += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        mutating func i16(_ v: Int16) { u16(UInt16(bitPattern: v)) }
        mutating func u32(_ v: UInt32) { u16(UInt16(v >> 16)); u16(UInt16(v & 0xFFFF)) }
        mutating func zeros(_ n: Int) { data += [UInt8](repeating: 0, count: n) }
    }
}
