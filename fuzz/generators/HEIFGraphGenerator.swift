/// Builds a HEIF item graph from arbitrary bytes (a fuzzer's input): coded tiles (a real HEVC
/// bitstream, their `ispe` sometimes lying), a top image that is a tile, a `grid` (its canvas
/// often unlike its `ispe`, its tiles repeated), an `iovl` overlay or an `iden`, `irot`/`imir`/`clap`
/// on any item, a thumbnail, an alpha or depth auxiliary image, `pitm` pointing anywhere, data in
/// `mdat` or `idat`, and derivation cycles. Every choice comes from the next bytes, zero when they
/// run out, so every input makes a file.
struct HEIFGraphGenerator {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func byte() -> Int {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return Int(bytes[at])
    }

    /// A value in `range`, from one or two bytes.
    private mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = range.upperBound - range.lowerBound + 1
        let raw = span > 256 ? byte() << 8 | byte() : byte()
        return range.lowerBound + raw % span
    }

    /// True for one byte value in `outOf` (never for zero bytes).
    private mutating func chance(_ outOf: Int) -> Bool { byte() % outOf == outOf - 1 }

    /// A size: mostly the real 64, sometimes small, sometimes huge.
    private mutating func side() -> Int {
        switch byte() % 8 {
        case 5: return int(1...128)
        case 6: return int(1...0xFFFF)
        case 7: return int(1...0xFFFF) << 16 | int(0...0xFFFF)
        default: return 64
        }
    }

    private mutating func transforms(width: Int, height: Int) -> [[UInt8]] {
        var properties: [[UInt8]] = []
        if chance(3) { properties.append(HEIFFileBuilder.irot(int(0...3))) }
        if chance(4) { properties.append(HEIFFileBuilder.imir(vertical: chance(2))) }
        if chance(4) {
            properties.append(HEIFFileBuilder.clap(width: int(0...max(0, width)), height: int(0...max(0, height)),
                                                   horizontalOffset: int(0...16) - 8, verticalOffset: int(0...16) - 8,
                                                   denominator: chance(8) ? 0 : 1))
        }
        return properties
    }

    mutating func build() -> HEIFFileBuilder {
        var file = HEIFFileBuilder()
        let tileCount = int(1...4)
        for id in 1...tileCount {
            let width = side(), height = side()
            var tile = HEIFFileBuilder.tile(id: 10 + id, width: width, height: height, extra: transforms(width: width, height: height))
            // Sometimes the transforms come before the size, as some cameras write them.
            if chance(4) { tile.properties.reverse() }
            tile.hidden = !chance(4)
            file.items.append(tile)
        }
        let tiles = (1...tileCount).map { 10 + $0 }
        var top = 1
        switch byte() % 5 {
        case 0:
            top = tiles[0]
            file.items[0].hidden = false
        case 1, 2:
            let rows = int(1...8), columns = int(1...8)
            let width = chance(2) ? columns * 64 : side(), height = chance(2) ? rows * 64 : side()
            var grid = HEIFFileBuilder.Item(id: 1, type: "grid", data: HEIFFileBuilder.grid(rows: rows, columns: columns, width: width, height: height))
            grid.inIdat = chance(2)
            let ispeWidth = chance(2) ? width : side(), ispeHeight = chance(2) ? height : side()
            grid.properties = [HEIFFileBuilder.ispe(ispeWidth, ispeHeight)] + transforms(width: width, height: height)
            file.items.append(grid)
            let count = chance(8) ? int(0...80) : rows * columns
            file.references.append(("dimg", 1, (0..<count).map { tiles[$0 % tiles.count] }))
        case 3:
            let width = side(), height = side()
            let offsets = tiles.map { _ in (x: int(0...120) - 20, y: int(0...120) - 20) }
            var overlay = HEIFFileBuilder.Item(id: 1, type: "iovl", data: HEIFFileBuilder.overlay(width: width, height: height, offsets: offsets))
            overlay.inIdat = chance(2)
            overlay.properties = [HEIFFileBuilder.ispe(chance(2) ? width : side(), chance(2) ? height : side())]
            file.items.append(overlay)
            file.references.append(("dimg", 1, tiles))
        default:
            var identity = HEIFFileBuilder.Item(id: 1, type: "iden")
            identity.properties = [HEIFFileBuilder.ispe(64, 64)] + transforms(width: 64, height: 64)
            file.items.append(identity)
            file.references.append(("dimg", 1, [tiles[0]]))
        }
        if chance(3) {
            file.items.append(HEIFFileBuilder.tile(id: 2, width: chance(2) ? 64 : side()))
            file.references.append(("thmb", 2, [top]))
        }
        if chance(3) {
            let alpha = chance(2)
            var auxiliary = HEIFFileBuilder.tile(id: 3, width: chance(2) ? 64 : side(),
                                                 extra: [HEIFFileBuilder.auxC(alpha ? HEIFFileBuilder.alphaType : "urn:mpeg:hevc:2015:auxid:2")])
            auxiliary.hidden = chance(2)
            file.items.append(auxiliary)
            file.references.append(("auxl", 3, [top]))
        }
        if chance(16) {
            // A cycle: a tile derived from the top image.
            file.references.append(("dimg", tiles[0], [top]))
        }
        switch byte() % 6 {
        case 3: file.primary = nil
        case 4: file.primary = 2
        case 5: file.primary = int(0...0xFFFF)
        default: file.primary = top
        }
        if chance(8) { file.brand = "avif" }
        return file
    }
}
