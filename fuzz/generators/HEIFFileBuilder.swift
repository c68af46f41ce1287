/// Writes a HEIF file from a description of its items: `ftyp`, `meta` (`hdlr`, `pitm`, `iinf`,
/// `iloc`, `iref`, `iprp` with `ipco`/`ipma`, `idat`) and `mdat`. Whatever the description says is
/// written, consistent or not (a grid canvas unlike its `ispe`, references to missing items), so
/// tests and the fuzzer can make the files an attacker would.
struct HEIFFileBuilder {
    /// One item: its type, properties (whole boxes, in association order) and data.
    struct Item {
        var id: Int
        var type: String
        var hidden = false
        var properties: [[UInt8]] = []
        var data: [UInt8] = []
        /// Data in `idat` (construction method 1) rather than `mdat`.
        var inIdat = false
    }

    var brand = "heic"
    var items: [Item] = []
    /// The `pitm` item id; nil writes no `pitm` box.
    var primary: Int? = 1
    var references: [(type: String, from: Int, to: [Int])] = []

    /// A real 64×64 8-bit HEVC image made by libheif's heif-enc: its `hvcC` contents and data.
    static let sampleTileConfiguration = hex("""
        0103700000000000000000001ef000fcfdf8f800000f03200001001840010c01ffff03700000030090000003000003001eba\
        0240210001002b42010103700000030090000003000003001ea020810596ea4929ae6e04040c0800000300080000030008\
        4022000100074401c172b02240
        """)
    static let sampleTileData = hex("0000001f2801af0418fc7b75412543b7886ffe0d5b96424067ede6f7dca0982204a070")

    /// A coded 64×64 tile (or another size: `ispe` then lies about the bitstream).
    static func tile(id: Int, width: Int = 64, height: Int = 64, extra: [[UInt8]] = []) -> Item {
        Item(id: id, type: "hvc1", properties: [box("hvcC", sampleTileConfiguration), ispe(width, height)] + extra,
             data: sampleTileData)
    }

    func build() -> [UInt8] {
        let ftyp = Self.box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array("mif1".utf8) + Array(brand.utf8))
        // Offsets into mdat depend on meta's size, which the offsets' values do not change.
        let draft = meta(mdatStart: 0)
        let mdatStart = ftyp.count + draft.count + 8
        return ftyp + meta(mdatStart: mdatStart) + Self.box("mdat", items.filter { !$0.inIdat }.flatMap(\.data))
    }

    private func meta(mdatStart: Int) -> [UInt8] {
        var children = Self.fullBox("hdlr", 0, 0, [0, 0, 0, 0] + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        if let primary { children += Self.fullBox("pitm", 0, 0, Self.be(primary, 2)) }
        var infes: [UInt8] = []
        for item in items {
            infes += Self.fullBox("infe", 2, item.hidden ? 1 : 0, Self.be(item.id, 2) + [0, 0] + Array(item.type.utf8) + [0])
        }
        children += Self.fullBox("iinf", 0, 0, Self.be(items.count, 2) + infes)
        // iloc version 1: 4-byte offsets and lengths, no base offset, a construction method each.
        var iloc = [0x44, 0x00] + Self.be(items.count, 2)
        var mdatOffset = mdatStart, idatOffset = 0
        for item in items {
            let offset = item.inIdat ? idatOffset : mdatOffset
            iloc += Self.be(item.id, 2) + Self.be(item.inIdat ? 1 : 0, 2) + [0, 0] + [0, 1] + Self.be(offset, 4) + Self.be(item.data.count, 4)
            if item.inIdat { idatOffset += item.data.count } else { mdatOffset += item.data.count }
        }
        children += Self.fullBox("iloc", 1, 0, iloc)
        if !references.isEmpty {
            children += Self.fullBox("iref", 0, 0, references.flatMap { reference in
                Self.box(reference.type, Self.be(reference.from, 2) + Self.be(reference.to.count, 2) + reference.to.flatMap { Self.be($0, 2) })
            })
        }
        var ipco: [UInt8] = [], ipma: [UInt8] = []
        var index = 0
        for item in items {
            ipma += Self.be(item.id, 2) + [UInt8(truncatingIfNeeded: item.properties.count)]
            for property in item.properties {
                ipco += property
                index += 1
                ipma += Self.be(0x8000 | index, 2)
            }
        }
        children += Self.box("iprp", Self.box("ipco", ipco) + Self.fullBox("ipma", 0, 1, Self.be(items.count, 4) + ipma))
        let idat = items.filter(\.inIdat).flatMap(\.data)
        if !idat.isEmpty { children += Self.box("idat", idat) }
        return Self.fullBox("meta", 0, 0, children)
    }

    // MARK: Boxes and item data

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be(8 + payload.count, 4) + Array(type.utf8.prefix(4)) + payload
    }

    static func fullBox(_ type: String, _ version: Int, _ flags: Int, _ payload: [UInt8]) -> [UInt8] {
        box(type, [UInt8(truncatingIfNeeded: version)] + be(flags, 3) + payload)
    }

    static func ispe(_ width: Int, _ height: Int) -> [UInt8] { fullBox("ispe", 0, 0, be(width, 4) + be(height, 4)) }
    /// Turns counter-clockwise by `quarterTurns` × 90°.
    static func irot(_ quarterTurns: Int) -> [UInt8] { box("irot", [UInt8(quarterTurns & 3)]) }
    static func imir(vertical: Bool) -> [UInt8] { box("imir", [vertical ? 0 : 1]) }
    /// A clean aperture of `width`×`height` centred, offsets in pixels; `denominator` 0 makes it malformed.
    static func clap(width: Int, height: Int, horizontalOffset: Int = 0, verticalOffset: Int = 0, denominator: Int = 1) -> [UInt8] {
        box("clap", [width, denominator, height, denominator, horizontalOffset, denominator, verticalOffset, denominator]
            .flatMap { be($0, 4) })
    }
    static func auxC(_ type: String) -> [UInt8] { fullBox("auxC", 0, 0, Array(type.utf8) + [0]) }
    static let alphaType = "urn:mpeg:hevc:2015:auxid:1"

    /// A `grid` item's data: `rows`×`columns` tiles on a `width`×`height` canvas (32-bit fields when needed).
    static func grid(rows: Int, columns: Int, width: Int, height: Int) -> [UInt8] {
        let wide = width > 0xFFFF || height > 0xFFFF
        let size = wide ? 4 : 2
        return [0, wide ? 1 : 0, UInt8(truncatingIfNeeded: rows - 1), UInt8(truncatingIfNeeded: columns - 1)] + be(width, size) + be(height, size)
    }

    /// An `iovl` item's data: a canvas and one offset per input.
    static func overlay(width: Int, height: Int, offsets: [(x: Int, y: Int)]) -> [UInt8] {
        let wide = width > 0xFFFF || height > 0xFFFF
        let size = wide ? 4 : 2
        return [0, wide ? 1 : 0] + [UInt8](repeating: 0xFF, count: 8) + be(width, size) + be(height, size)
            + offsets.flatMap { be($0.x, size) + be($0.y, size) }
    }

    static func be(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8).compactMap { c -> UInt8? in
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        return stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
