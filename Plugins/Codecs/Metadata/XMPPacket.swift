/// Reads and edits an XMP packet following the EXIF rules: the orientation read when EXIF has
/// none, location removed with `strip-location`, the orientation reset once applied.
enum XMPPacket {
    static let orientationName = Array("tiff:Orientation".utf8)

    /// The first `tiff:Orientation` (attribute or element) as 1–8 (another value counts as 1), or
    /// nil when the packet has none. Plain byte searches: packets reach megabytes.
    static func orientation(_ xmp: [UInt8]) -> Int? {
        var at = 0
        while let found = ExtendedXMP.find(orientationName, in: xmp, from: at) {
            at = found + orientationName.count
            if let value = value(in: xmp, after: at) { return (1...8).contains(value) ? value : 1 }
        }
        return nil
    }

    /// The number of `="6"`, `='6'` or `>6<` (spaces allowed) at `start`; 0 when what follows `=`
    /// or `>` is no number; nil when the name is followed by neither (a longer name, other syntax).
    private static func value(in xmp: [UInt8], after start: Int) -> Int? {
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        var at = start
        func skipSpaces() { while at < xmp.count, spaces.contains(xmp[at]) { at += 1 } }
        skipSpaces()
        guard at < xmp.count else { return nil }
        let closing: UInt8
        switch xmp[at] {
        case UInt8(ascii: "="):
            at += 1
            skipSpaces()
            guard at < xmp.count, xmp[at] == UInt8(ascii: "\"") || xmp[at] == UInt8(ascii: "'") else { return nil }
            closing = xmp[at]
        case UInt8(ascii: ">"):
            closing = UInt8(ascii: "<")
        default:
            return nil
        }
        at += 1
        skipSpaces()
        var value = 0, digits = 0
        while at < xmp.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(xmp[at]), digits < 4 {
            value = value * 10 + Int(xmp[at] - UInt8(ascii: "0"))
            digits += 1
            at += 1
        }
        skipSpaces()
        guard digits > 0, at < xmp.count, xmp[at] == closing else { return 0 }
        return value
    }

    /// `xmp` without `exif:GPS…` properties (attributes and elements).
    static func removingLocation(_ xmp: [UInt8]) -> [UInt8] {
        var text = String(decoding: xmp, as: UTF8.self)
        text = text.replacing(#/\s+exif:GPS[A-Za-z]*\s*=\s*("[^"]*"|'[^']*')/#, with: "")
        text = text.replacing(#/<exif:GPS([A-Za-z]*)[^>]*/>/#, with: "")
        text = text.replacing(#/<exif:GPS([A-Za-z]*)[^>]*>[\s\S]*?</exif:GPS\1>/#, with: "")
        return Array(text.utf8)
    }

    /// `xmp` with every `tiff:Orientation` (attribute or element, whatever its value) set to 1.
    static func uprightOrientation(_ xmp: [UInt8]) -> [UInt8] {
        guard ExtendedXMP.find(orientationName, in: xmp, from: 0) != nil else { return xmp }
        var text = String(decoding: xmp, as: UTF8.self)
        text = text.replacing(#/tiff:Orientation\s*=\s*("[^"]*"|'[^']*')/#, with: "tiff:Orientation=\"1\"")
        text = text.replacing(#/<tiff:Orientation(\s[^>]*)?>[\s\S]*?</tiff:Orientation\s*>/#,
                              with: "<tiff:Orientation>1</tiff:Orientation>")
        return Array(text.utf8)
    }
}
