/// The first image file directory (IFD0) of a TIFF structure, read with every offset bounds-checked:
/// used for EXIF orientation in JPEG APP1 segments (TIFF files themselves are read by libtiff). Hostile input
/// (offsets past the end, loops, absurd counts) yields missing tags, never a crash.
struct TIFFDirectory {
    /// Tag → integer value, for the SHORT and LONG tags with a single value.
    private(set) var values: [UInt16: Int] = [:]

    /// Parses the header and IFD0 of the TIFF structure in `bytes[start..<end]`; nil if malformed.
    init?(_ bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        let end = min(end ?? bytes.count, bytes.count)
        guard start >= 0, end - start >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= start, at + 2 <= end else { return nil }
            let a = Int(bytes[at]), b = Int(bytes[at + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(littleEndian ? at : at + 2), let hi = u16(littleEndian ? at + 2 : at) else { return nil }
            return lo | hi << 16
        }
        guard u16(start + 2) == 42, let ifdOffset = u32(start + 4) else { return nil }
        let ifd = start + ifdOffset
        guard ifdOffset >= 8, let count = u16(ifd), count <= 1000 else { return nil }
        // A tag given twice counts as libtiff counts it: the first entry wins, and one it cannot
        // read as a single number leaves the tag unreadable (a later entry does not stand in).
        var seen = Set<UInt16>()
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let n = u32(entry + 4) else { break }
            guard seen.insert(UInt16(tag)).inserted, n == 1 else { continue }
            switch type {
            case 1: if entry + 8 < end { values[UInt16(tag)] = Int(bytes[entry + 8]) }
            case 3: if let v = u16(entry + 8) { values[UInt16(tag)] = v }
            case 4: if let v = u32(entry + 8) { values[UInt16(tag)] = v }
            default: continue
            }
        }
    }

    subscript(tag: UInt16) -> Int? { values[tag] }

    static let orientation: UInt16 = 0x0112
}
