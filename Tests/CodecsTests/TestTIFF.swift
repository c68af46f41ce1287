/// A small uncompressed TIFF (classic or BigTIFF, little-endian; one strip, strips of
/// `rowsPerStrip` rows or tiles of `tileSize`) with the tags a test chooses: the layouts libtiff
/// must hand to the decoder, written without libtiff.
struct TestTIFF {
    var width: Int
    var height: Int
    /// Bits of each sample (their count is the samples per pixel).
    var bits: [Int]
    var photometric: Int
    /// The strip: rows of packed samples, 16/32/64-bit samples little-endian.
    var data: [UInt8]
    var sampleFormat = 1
    var extraSamples: [Int] = []
    var orientation: Int?
    var colorMap: [UInt16]?
    var big = false
    /// StripByteCounts when it should not be the strip's real length (one strip).
    var stripBytes: Int?
    /// The first StripOffsets (or TileOffsets) value when it should not be where the data is.
    var firstOffset: Int?
    /// Rows of each strip (the last one shorter); nil: one strip.
    var rowsPerStrip: Int?
    /// Tiles of this many pixels (multiples of 16; edge tiles padded with zeros) instead of strips.
    var tileSize: (width: Int, height: Int)?
    /// Each sample in a plane of its own (PlanarConfiguration 2; strips only, whole-byte samples):
    /// every strip of the first plane, then of the next.
    var separatePlanes = false

    init(width: Int, height: Int, bits: [Int], photometric: Int, data: [UInt8]) {
        (self.width, self.height, self.bits, self.photometric, self.data) = (width, height, bits, photometric, data)
    }

    /// Samples of 16 bits as little-endian bytes.
    static func words(_ values: [Int]) -> [UInt8] { values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF)] } }

    /// Samples of 32-bit floats as little-endian bytes.
    static func floats(_ values: [Float]) -> [UInt8] {
        values.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v.bitPattern >> (8 * $0)) } }
    }

    /// The stored pieces of `data`: its strips, or its tiles left to right, top to bottom (bytes
    /// of whole pixels).
    func pieces() -> [[UInt8]] {
        let rowBytes = data.count / height
        if let tileSize {
            let pixelBytes = rowBytes / width
            var tiles: [[UInt8]] = []
            for top in stride(from: 0, to: height, by: tileSize.height) {
                for left in stride(from: 0, to: width, by: tileSize.width) {
                    var tile = [UInt8](repeating: 0, count: tileSize.width * tileSize.height * pixelBytes)
                    for y in top..<min(height, top + tileSize.height) {
                        let columns = min(width, left + tileSize.width) - left
                        let from = y * rowBytes + left * pixelBytes, to = (y - top) * tileSize.width * pixelBytes
                        tile.replaceSubrange(to..<(to + columns * pixelBytes), with: data[from..<(from + columns * pixelBytes)])
                    }
                    tiles.append(tile)
                }
            }
            return tiles
        }
        let planes = separatePlanes ? samplePlanes() : [data]
        let rows = rowsPerStrip ?? height
        return planes.flatMap { plane in
            let planeRow = plane.count / height
            return stride(from: 0, to: height, by: rows).map { Array(plane[($0 * planeRow)..<(min(height, $0 + rows) * planeRow)]) }
        }
    }

    /// `data`'s samples apart: one array per sample, pixels in order.
    private func samplePlanes() -> [[UInt8]] {
        let sizes = bits.map { $0 / 8 }, pixelBytes = sizes.reduce(0, +)
        return sizes.indices.map { s in
            let start = sizes[..<s].reduce(0, +)
            return stride(from: 0, to: data.count, by: pixelBytes).flatMap { data[($0 + start)..<($0 + start + sizes[s])] }
        }
    }

    func bytes() -> [UInt8] {
        enum Value { case short([Int]), long([Int]) }
        let headerSize = big ? 16 : 8, inline = big ? 8 : 4
        let pieces = pieces()
        var offsets = pieces.indices.map { i in headerSize + pieces[..<i].reduce(0) { $0 + $1.count } }
        if let firstOffset { offsets[0] = firstOffset }
        let counts = stripBytes.map { [$0] } ?? pieces.map(\.count)
        var entries: [(UInt16, Value)] = [
            (256, .long([width])), (257, .long([height])), (258, .short(bits)), (259, .short([1])),
            (262, .short([photometric])), (277, .short([bits.count])), (284, .short([separatePlanes ? 2 : 1])),
            (339, .short(bits.map { _ in sampleFormat })),
        ]
        if let tileSize {
            entries += [(322, .long([tileSize.width])), (323, .long([tileSize.height])), (324, .long(offsets)), (325, .long(counts))]
        } else {
            entries += [(273, .long(offsets)), (278, .long([rowsPerStrip ?? height])), (279, .long(counts))]
        }
        if let orientation { entries.append((274, .short([orientation]))) }
        if let colorMap { entries.append((320, .short(colorMap.map(Int.init)))) }
        if !extraSamples.isEmpty { entries.append((338, .short(extraSamples))) }
        entries.sort { $0.0 < $1.0 }
        var out = [UInt8]()
        func put(_ value: Int, _ size: Int) { for i in 0..<size { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        // Header, then the strip, then values that do not fit in an entry, then the directory.
        out += [0x49, 0x49]
        if big { put(43, 2); put(8, 2); put(0, 2); put(0, 8) } else { put(42, 2); put(0, 4) }
        out += pieces.joined()
        var placed: [UInt16: Int] = [:]
        for (tag, value) in entries {
            let (values, size): ([Int], Int) = switch value { case .short(let v): (v, 2); case .long(let v): (v, 4) }
            guard values.count * size > inline else { continue }
            placed[tag] = out.count
            for v in values { put(v, size) }
        }
        if out.count % 2 == 1 { out.append(0) }
        let directory = out.count
        let pointer = big ? 8 : 4
        for i in 0..<(big ? 8 : 4) { out[pointer + i] = UInt8(truncatingIfNeeded: directory >> (8 * i)) }
        put(entries.count, big ? 8 : 2)
        for (tag, value) in entries {
            let (values, size, type): ([Int], Int, Int) = switch value { case .short(let v): (v, 2, 3); case .long(let v): (v, 4, 4) }
            put(Int(tag), 2); put(type, 2); put(values.count, big ? 8 : 4)
            if let at = placed[tag] {
                put(at, inline)
            } else {
                let start = out.count
                for v in values { put(v, size) }
                put(0, inline - (out.count - start))
            }
        }
        put(0, big ? 8 : 4)
        return out
    }
}
