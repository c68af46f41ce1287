/// ImageMagick's "Raw profile type NAME" PNG text chunks (`tEXt`, `zTXt`): a profile written as
/// text — a line break, the name, the length in bytes right-aligned in 8 columns, then the bytes
/// as hexadecimal digits in lines of 72. How ImageMagick and older tools put EXIF into a PNG before
/// `eXIf` existed (keyword `Raw profile type exif`; ImageMagick 6.9 writes `Raw profile type app1`
/// for an APP1 profile, with JPEG's `Exif\0\0` in front).
enum RawProfileText {
    static let keywordPrefix = "raw profile type "

    /// Whether a text chunk's keyword (letter case aside) names a raw EXIF or APP1 profile.
    static func isEXIFKeyword(_ data: ArraySlice<UInt8>) -> Bool { keyword(data).map(exifKeywords.contains) ?? false }

    static let exifKeywords: Set<String> = [keywordPrefix + "exif", keywordPrefix + "app1"]

    /// The keyword of a text chunk's data (before its NUL), lower case.
    private static func keyword(_ data: ArraySlice<UInt8>) -> String? {
        guard let nul = data.prefix(80).firstIndex(of: 0) else { return nil }
        return String(decoding: data[data.startIndex..<nul], as: UTF8.self).lowercased()
    }

    /// The EXIF block (TIFF structure) in a text chunk's data (keyword, NUL, and for `zTXt` the
    /// method byte and a zlib stream), or nil when the chunk holds none.
    static func exif(chunk data: ArraySlice<UInt8>, compressed: Bool) -> [UInt8]? {
        guard let keyword = keyword(data), exifKeywords.contains(keyword), let nul = data.firstIndex(of: 0) else { return nil }
        let text: [UInt8]
        if compressed {
            guard nul + 2 <= data.endIndex, data[nul + 1] == 0, let inflated = Zlib.inflate(data[(nul + 2)...]) else { return nil }
            text = inflated
        } else {
            text = Array(data[(nul + 1)...])
        }
        guard var bytes = profile(text) else { return nil }
        if bytes.starts(with: JPEGSegments.exifSignature) {
            bytes.removeFirst(JPEGSegments.exifSignature.count)
        } else if keyword.hasSuffix("app1") {
            return nil  // an APP1 profile that is not EXIF (XMP, for one)
        }
        return bytes
    }

    /// The bytes of a raw profile's text; nil when it is malformed or shorter than it says.
    static func profile(_ text: [UInt8]) -> [UInt8]? {
        let newline = UInt8(ascii: "\n")
        var at = 0
        while at < text.count, text[at] == newline { at += 1 }
        guard let nameEnd = text[at...].firstIndex(of: newline) else { return nil }
        at = nameEnd + 1
        while at < text.count, text[at] == UInt8(ascii: " ") { at += 1 }
        var length = 0, digits = 0
        while at < text.count, let digit = decimal(text[at]), digits < 9 {
            length = length * 10 + digit
            digits += 1
            at += 1
        }
        // Two hexadecimal digits a byte: the declared length is checked against the text before
        // anything is allocated for it.
        guard digits > 0, length <= (text.count - at) / 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        while at < text.count, bytes.count < length {
            defer { at += 1 }
            guard let nibble = hex(text[at]) else {
                if [0x0A, 0x0D, 0x20, 0x09].contains(text[at]) { continue }
                return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes.count == length ? bytes : nil
    }

    private static func decimal(_ c: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) ? Int(c - UInt8(ascii: "0")) : nil
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
