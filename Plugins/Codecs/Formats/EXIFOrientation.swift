/// The EXIF orientation (1–8) of a JPEG and the geometry of applying it.
///
/// 1 upright, 2 mirrored left-right, 3 rotated 180°, 4 mirrored top-bottom, 5 transposed,
/// 6 needs 90° clockwise, 7 transversed, 8 needs 90° counter-clockwise.
enum EXIFOrientation {
    /// The orientation stored in the JPEG's EXIF APP1 segment, or 1 when there is none or it is
    /// malformed. Only the markers before the image data are walked, each length bounds-checked.
    static func read(fromJPEG bytes: [UInt8]) -> Int {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return 1 }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return 1 }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }                  // fill byte
            if marker == 0xDA || marker == 0xD9 { return 1 }          // image data or end: no EXIF
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { return 1 }
            let body = at + 4, end = at + 2 + length
            guard end <= bytes.count else { return 1 }
            if marker == 0xE1, end - body >= 14, Array(bytes[body..<(body + 6)]) == Array("Exif\0\0".utf8) {
                let value = TIFFDirectory(bytes, start: body + 6, end: end)?[TIFFDirectory.orientation] ?? 1
                return (1...8).contains(value) ? value : 1
            }
            at = end
        }
        return 1
    }

    /// Whether the orientation swaps width and height (5–8).
    static func swapsAxes(_ orientation: Int) -> Bool { orientation >= 5 && orientation <= 8 }
}
