/// An EXIF block — a TIFF structure (`II*\0` or `MM\0*` header, IFD0, the EXIF, GPS and
/// interoperability sub-IFDs, IFD1 with the thumbnail) — read and rewritten in place.
///
/// No offset is trusted: every directory and value is bounds-checked, each directory is visited once
/// and at most `maxDirectories` of them (so offsets that loop cannot), and a directory that points
/// outside the block is treated as absent. Rewriting patches bytes in place, so maker notes that hold
/// offsets into the block stay valid.
struct EXIFBlock {
    private(set) var bytes: [UInt8]
    let littleEndian: Bool
    private(set) var ifd0 = Directory(offset: 0, entries: [], nextOffsetAt: 0)

    static let orientationTag: UInt16 = 0x0112
    static let exifPointerTag: UInt16 = 0x8769
    static let gpsPointerTag: UInt16 = 0x8825
    static let interopPointerTag: UInt16 = 0xA005
    static let pixelXTag: UInt16 = 0xA002
    static let pixelYTag: UInt16 = 0xA003
    static let thumbnailOffsetTag: UInt16 = 0x0201
    static let thumbnailLengthTag: UInt16 = 0x0202

    /// One 12-byte directory entry and where its value lies (nil when it points outside the block).
    struct Entry {
        let tag: UInt16
        let type: Int
        let count: Int
        /// Offset of the entry itself.
        let at: Int
        let value: Range<Int>?
    }

    /// A directory: its entries and where its "next directory" offset is stored.
    struct Directory {
        let offset: Int
        let entries: [Entry]
        let nextOffsetAt: Int
        subscript(tag: UInt16) -> Entry? { entries.first { $0.tag == tag } }
        /// The bytes the directory and its out-of-line values occupy.
        var regions: [Range<Int>] {
            [offset..<(nextOffsetAt + 4)] + entries.compactMap { entry in
                entry.value.flatMap { $0.lowerBound == entry.at + 8 ? nil : $0 }
            }
        }
    }

    /// Parses the header and IFD0; nil when they are not a readable TIFF structure.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42, let offset = u32(4), let directory = directory(at: offset) else { return nil }
        ifd0 = directory
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let a = Int(bytes[at]), b = Int(bytes[at + 1])
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let first = u16(at), let second = u16(at + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }

    static func typeSize(_ type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// The directory at `offset`, or nil when it (or its entry table) lies outside the block.
    func directory(at offset: Int) -> Directory? {
        guard offset >= 8, let count = u16(offset), count <= 4096 else { return nil }
        let nextOffsetAt = offset + 2 + count * 12
        guard nextOffsetAt + 4 <= bytes.count else { return nil }
        var entries: [Entry] = []
        for index in 0..<count {
            let at = offset + 2 + index * 12
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { return nil }
            var value: Range<Int>?
            if let size = EXIFBlock.typeSize(type) {
                let (length, overflow) = size.multipliedReportingOverflow(by: n)
                if !overflow {
                    if length <= 4 { value = (at + 8)..<(at + 8 + length) }
                    else if let start = u32(at + 8), start >= 8, length <= bytes.count - start {
                        value = start..<(start + length)
                    }
                }
            }
            entries.append(Entry(tag: UInt16(tag), type: type, count: n, at: at, value: value))
        }
        return Directory(offset: offset, entries: entries, nextOffsetAt: nextOffsetAt)
    }

    /// The single SHORT or LONG value of `entry`.
    func integer(_ entry: Entry?) -> Int? {
        guard let entry, entry.count == 1 else { return nil }
        switch entry.type {
        case 3: return u16(entry.at + 8)
        case 4: return u32(entry.at + 8)
        default: return nil
        }
    }

    /// The directory offsets a pointer entry holds: its SHORT, LONG or IFD (type 13) values, at
    /// most 16 of them.
    func pointers(_ entry: Entry) -> [Int] {
        guard let range = entry.value, [3, 4, 13].contains(entry.type) else { return [] }
        let size = entry.type == 3 ? 2 : 4
        return stride(from: range.lowerBound, to: range.upperBound, by: size).prefix(16).compactMap { at in
            size == 2 ? u16(at) : u32(at)
        }
    }

    /// The sub-directory a pointer tag of `parent` (IFD0 by default) names, if it lies inside the block.
    func subdirectory(_ tag: UInt16, in parent: Directory? = nil) -> Directory? {
        let parent = parent ?? ifd0
        guard let entry = parent[tag], entry.count == 1, let offset = pointers(entry).first, offset != parent.offset else {
            return nil
        }
        return directory(at: offset)
    }

    /// IFD1 (the thumbnail's directory), if IFD0 links to one inside the block.
    var ifd1: Directory? {
        guard let next = u32(ifd0.nextOffsetAt), next != 0, next != ifd0.offset else { return nil }
        return directory(at: next)
    }

    /// A directory reachable from IFD0, how it was reached, and whether through IFD0's link to the
    /// next directory (IFD1, the thumbnail's, and what hangs off it).
    struct Reached {
        let directory: Directory
        /// The pointer tag that named it; nil for IFD0 and for a "next directory" link.
        let pointer: UInt16?
        let belowIFD1: Bool
    }

    /// Tags whose values are directory offsets.
    static let pointerTags: Set<UInt16> = [exifPointerTag, gpsPointerTag, interopPointerTag]
    static let maxDirectories = 64

    /// Every directory reachable from IFD0, each once (by offset) and at most `maxDirectories`:
    /// the chain of next directories (IFD1 …) and the EXIF, GPS and interoperability directories
    /// that pointers in any of them name, whatever the pointer's type (LONG or IFD).
    func reachableDirectories() -> [Reached] {
        var found = [Reached(directory: ifd0, pointer: nil, belowIFD1: false)]
        var seen: Set<Int> = [ifd0.offset]
        var index = 0
        while index < found.count && found.count < EXIFBlock.maxDirectories {
            let parent = found[index]
            index += 1
            var links: [(offset: Int, pointer: UInt16?)] = []
            for entry in parent.directory.entries where EXIFBlock.pointerTags.contains(entry.tag) {
                links += pointers(entry).map { ($0, entry.tag) }
            }
            if let next = u32(parent.directory.nextOffsetAt), next != 0 { links.append((next, nil)) }
            for link in links where found.count < EXIFBlock.maxDirectories && seen.insert(link.offset).inserted {
                guard let directory = directory(at: link.offset) else { continue }
                let belowIFD1 = parent.belowIFD1 || (parent.directory.offset == ifd0.offset && link.pointer == nil)
                found.append(Reached(directory: directory, pointer: link.pointer, belowIFD1: belowIFD1))
            }
        }
        return found
    }

    /// The stored orientation (1–8), or nil.
    var orientation: Int? { integer(ifd0[EXIFBlock.orientationTag]).flatMap { (1...8).contains($0) ? $0 : nil } }

    /// The bytes of the value of `tag` in IFD0 (for TIFF files: ICC profile 34675, XMP 700).
    func value(of tag: UInt16) -> ArraySlice<UInt8>? {
        guard let range = ifd0[tag]?.value else { return nil }
        return bytes[range]
    }

    private mutating func put16(_ value: Int, at: Int) {
        let (a, b) = (UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF))
        if littleEndian { bytes[at] = a; bytes[at + 1] = b } else { bytes[at] = b; bytes[at + 1] = a }
    }

    private mutating func put32(_ value: Int, at: Int) {
        let (low, high) = (value & 0xFFFF, value >> 16 & 0xFFFF)
        put16(littleEndian ? low : high, at: at)
        put16(littleEndian ? high : low, at: at + 2)
    }

    private mutating func zero(_ range: Range<Int>) {
        let clipped = max(0, range.lowerBound)..<min(bytes.count, range.upperBound)
        for i in clipped { bytes[i] = 0 }
    }

    /// Sets an existing SHORT/LONG single-value entry (a SHORT too small for `value` becomes LONG).
    private mutating func set(_ entry: Entry?, to value: Int) {
        guard let entry, entry.count == 1, entry.type == 3 || entry.type == 4 else { return }
        if entry.type == 3 && value > 0xFFFF { put16(4, at: entry.at + 2) }
        if entry.type == 4 || value > 0xFFFF { put32(value, at: entry.at + 8) } else { put16(value, at: entry.at + 8) }
    }

    /// Removes the entries at `indices` from `directory` in place: the entries after them and the
    /// next-directory offset move up, the freed bytes at the end of the table become zeros.
    private mutating func remove(_ indices: Set<Int>, from directory: Directory) {
        let kept = directory.entries.indices.filter { !indices.contains($0) }
        let rows = kept.map { index in Array(bytes[directory.entries[index].at..<(directory.entries[index].at + 12)]) }
        let next = Array(bytes[directory.nextOffsetAt..<(directory.nextOffsetAt + 4)])
        put16(kept.count, at: directory.offset)
        var at = directory.offset + 2
        for row in rows + [next] {
            for (i, byte) in row.enumerated() { bytes[at + i] = byte }
            at += row.count
        }
        zero(at..<(directory.nextOffsetAt + 4))
    }

    /// The block as an encoder writes it for a new image: with `upright`, every Orientation entry
    /// in any directory set to 1 (or removed when it is not a single SHORT or LONG); the pixel
    /// dimensions set to `width`×`height`; the thumbnail (IFD1) dropped; and with `stripLocation`
    /// every GPS pointer removed, wherever it is, and the GPS directories it named zeroed with
    /// their values. Bytes are patched in place, so offsets into the block (maker notes) stay valid.
    ///
    /// Hostile blocks whose directories overlap can show an entry again once others move: the
    /// result is read back and rewritten again until no directory reached holds a GPS pointer or
    /// an Orientation other than 1 (as asked); nil (no EXIF written) when a few rounds do not do it.
    func rewritten(upright: Bool, width: Int, height: Int, stripLocation: Bool) -> [UInt8]? {
        var block = self
        for _ in 0..<4 {
            let bytes = block.rewrittenOnce(upright: upright, width: width, height: height, stripLocation: stripLocation)
            guard let result = EXIFBlock(bytes) else { return nil }
            if result.isClean(upright: upright, stripLocation: stripLocation) { return bytes }
            block = result
        }
        return nil
    }

    /// Whether no directory reached holds a GPS pointer (with `stripLocation`) or an Orientation
    /// other than 1 (with `upright`).
    func isClean(upright: Bool, stripLocation: Bool) -> Bool {
        reachableDirectories().allSatisfy { reached in
            reached.directory.entries.allSatisfy { entry in
                !(stripLocation && entry.tag == EXIFBlock.gpsPointerTag)
                    && !(upright && entry.tag == EXIFBlock.orientationTag && integer(entry) != 1)
            }
        }
    }

    private func rewrittenOnce(upright: Bool, width: Int, height: Int, stripLocation: Bool) -> [UInt8] {
        var copy = self
        let reachable = reachableDirectories()
        if let exif = subdirectory(EXIFBlock.exifPointerTag) {
            copy.set(exif[EXIFBlock.pixelXTag], to: width)
            copy.set(exif[EXIFBlock.pixelYTag], to: height)
        }
        var removed: [Range<Int>] = []
        if let thumbnail = ifd1 {
            removed += thumbnail.regions
            if let start = integer(thumbnail[EXIFBlock.thumbnailOffsetTag]),
               let length = integer(thumbnail[EXIFBlock.thumbnailLengthTag]), start >= 8, length <= bytes.count - start {
                removed.append(start..<(start + length))
            }
            copy.put32(0, at: ifd0.nextOffsetAt)
        }
        let isGPS = { (reached: Reached) in stripLocation && reached.pointer == EXIFBlock.gpsPointerTag }
        for reached in reachable where !reached.belowIFD1 && !isGPS(reached) {
            var dropped = Set<Int>()
            for (index, entry) in reached.directory.entries.enumerated() {
                if stripLocation && entry.tag == EXIFBlock.gpsPointerTag { dropped.insert(index) }
                if upright && entry.tag == EXIFBlock.orientationTag {
                    if integer(entry) != nil { copy.set(entry, to: 1) } else { dropped.insert(index) }
                }
            }
            if !dropped.isEmpty { copy.remove(dropped, from: reached.directory) }
        }
        for reached in reachable where isGPS(reached) { removed += reached.directory.regions }
        for range in removed { copy.zero(range) }
        // Drop the freed bytes when they are all at the end, after everything still referenced.
        let kept = reachable.filter { !$0.belowIFD1 && !isGPS($0) }.flatMap(\.directory.regions)
        let keptEnd = kept.map(\.upperBound).max() ?? bytes.count
        if let firstRemoved = removed.map(\.lowerBound).min(), firstRemoved >= keptEnd {
            copy.bytes.removeSubrange(keptEnd...)
        }
        return copy.bytes
    }
}
