/// Whether an EXIF MakerNote (tag 0x927C) can be moved to another place in a TIFF structure as an
/// opaque blob, as exiftool does: true when nothing in it depends on where it lies.
///
/// Self-contained: notes that carry their own TIFF header or count offsets from their own start
/// (Nikon type 3, Apple, Fujifilm, Olympus/OM System), and notes with no directory, or a directory
/// whose values all fit in its entries. A directory with out-of-line values and no header of its
/// own (Canon, Sony, Panasonic and others) points at offsets counted from the EXIF block's start,
/// which moving it would break: such notes are left out.
enum MakerNote {
    /// Headers after which the note's offsets count from the note (or from a TIFF header inside it).
    static let relativeHeaders: [[UInt8]] = [
        Array("Nikon\0\u{02}".utf8), Array("Apple iOS\0".utf8), Array("FUJIFILM".utf8),
        Array("OLYMPUS\0".utf8), Array("OM SYSTEM\0".utf8),
    ]
    /// Headers before a directory whose offsets count from the EXIF block's start.
    static let absoluteHeaders: [[UInt8]] = [
        Array("Panasonic\0\0\0".utf8), Array("SONY DSC \0\0\0".utf8), Array("SONY CAM \0\0\0".utf8),
    ]

    static func isSelfContained(_ note: ArraySlice<UInt8>, littleEndian: Bool) -> Bool {
        let bytes = Array(note)
        if relativeHeaders.contains(where: { bytes.starts(with: $0) }) { return true }
        let start = absoluteHeaders.first { bytes.starts(with: $0) }?.count ?? 0
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return littleEndian ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return littleEndian ? a | b << 16 : a << 16 | b
        }
        // Not a directory (no plausible entry count, or entries past the end): an opaque blob.
        guard let count = u16(start), count > 0, count <= 1000, start + 2 + count * 12 <= bytes.count else {
            return true
        }
        for index in 0..<count {
            let at = start + 2 + index * 12
            guard let type = u16(at + 2), let n = u32(at + 4) else { return true }
            // An unknown type means this was not a directory after all.
            guard let size = EXIFBlock.typeSize(type) else { return true }
            let (length, overflow) = size.multipliedReportingOverflow(by: n)
            if overflow || length > 4 { return false }
        }
        return true
    }
}
