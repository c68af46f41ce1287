/// An EXIF block — a TIFF structure (`II*\0` or `MM\0*` header, IFD0, the EXIF, GPS and
/// interoperability sub-IFDs, IFD1 with the thumbnail) — read and rewritten in place.
///
/// No offset is trusted: every directory and value is bounds-checked, only the fixed set of
/// directories above is visited (so offsets that loop cannot), and a directory that points outside
/// the block is treated as absent. Rewriting patches bytes in place, so maker notes that hold
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

    /// The sub-directory an IFD0 pointer tag names, if it lies inside the block.
    func subdirectory(_ tag: UInt16, in parent: Directory? = nil) -> Directory? {
        guard let offset = integer((parent ?? ifd0)[tag]), offset != (parent ?? ifd0).offset else { return nil }
        return directory(at: offset)
    }

    /// IFD1 (the thumbnail's directory), if IFD0 links to one inside the block.
    var ifd1: Directory? {
        guard let next = u32(ifd0.nextOffsetAt), next != 0, next != ifd0.offset else { return nil }
        return directory(at: next)
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

    /// The block as an encoder writes it for a new image: `orientation` written (when given), the
    /// pixel dimensions set to `width`×`height`, the thumbnail (IFD1) dropped, and with
    /// `stripLocation` the GPS directory removed.
    func rewritten(orientation: Int?, width: Int, height: Int, stripLocation: Bool) -> [UInt8] {
        var copy = self
        if let orientation { copy.set(ifd0[EXIFBlock.orientationTag], to: orientation) }
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
        if stripLocation, let gpsEntry = ifd0[EXIFBlock.gpsPointerTag] {
            if let gps = subdirectory(EXIFBlock.gpsPointerTag) { removed += gps.regions }
            // Remove the pointer entry: later entries and the next-IFD offset move up 12 bytes.
            let tail = Array(copy.bytes[(gpsEntry.at + 12)..<(ifd0.nextOffsetAt + 4)])
            for (i, byte) in tail.enumerated() { copy.bytes[gpsEntry.at + i] = byte }
            copy.zero((ifd0.nextOffsetAt - 8)..<(ifd0.nextOffsetAt + 4))
            copy.put16(ifd0.entries.count - 1, at: ifd0.offset)
        }
        for range in removed { copy.zero(range) }
        // Drop the freed bytes when they are all at the end, after everything still referenced.
        var kept = ifd0.regions
        for tag in [EXIFBlock.exifPointerTag, EXIFBlock.gpsPointerTag] where !(stripLocation && tag == EXIFBlock.gpsPointerTag) {
            if let directory = subdirectory(tag) {
                kept += directory.regions
                if let interop = subdirectory(EXIFBlock.interopPointerTag, in: directory) { kept += interop.regions }
            }
        }
        let keptEnd = kept.map(\.upperBound).max() ?? bytes.count
        if let firstRemoved = removed.map(\.lowerBound).min(), firstRemoved >= keptEnd {
            copy.bytes.removeSubrange(keptEnd...)
        }
        return copy.bytes
    }
}
