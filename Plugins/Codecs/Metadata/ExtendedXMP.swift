import SumiCrypto
/// JPEG Extended XMP (XMP specification part 3, 1.1.3.1): an XMP packet too large for one APP1
/// segment is written as a small main packet naming the rest by `xmpNote:HasExtendedXMP` — the MD5
/// of the extended packet as 32 hexadecimal digits — plus APP1 `http://ns.adobe.com/xmp/extension/`
/// segments each holding that GUID, the full length, the offset and a portion.
enum ExtendedXMP {
    static let signature = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    /// GUID, full length and offset before each portion.
    static let headerSize = 32 + 4 + 4
    /// The largest portion one segment carries.
    static let portionSize = JPEGSegments.maxBody - signature.count - headerSize
    /// The largest extended packet written or read (64 MiB: a thousand segments).
    static let maxLength = 64 << 20

    /// A main packet holding only the GUID of the extended part.
    static func mainPacket(guid: String) -> [UInt8] {
        Array(("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:xmpNote=\"http://ns.adobe.com/xmp/note/\" xmpNote:HasExtendedXMP=\"\(guid)\"/>"
            + "</rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>").utf8)
    }

    /// The APP1 segment bodies for `xmp` (too large for one segment): the main packet, then the
    /// extension segments of the packet without its `<?xpacket?>` wrapper.
    static func segments(for xmp: [UInt8]) -> [[UInt8]] {
        let extended = unwrapped(xmp)
        let guid = Hex.string(MD5.digest(extended), uppercase: true)
        var bodies = [JPEGSegments.xmpSignature + mainPacket(guid: guid)]
        var offset = 0
        while offset < extended.count {
            let end = min(extended.count, offset + portionSize)
            bodies.append(signature + Array(guid.utf8) + bigEndian32(extended.count) + bigEndian32(offset)
                          + extended[offset..<end])
            offset = end
        }
        return bodies
    }

    /// The packet with its `<?xpacket ...?>` processing instructions (and the line breaks after
    /// them) removed. Plain byte searches: packets reach megabytes, where regular expressions crawl.
    static func unwrapped(_ xmp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(xmp.count)
        var at = 0
        while let open = find(Array("<?xpacket".utf8), in: xmp, from: at), let close = find(Array("?>".utf8), in: xmp, from: open) {
            out += xmp[at..<open]
            at = close + 2
            while at < xmp.count, [0x0A, 0x0D, 0x20, 0x09].contains(xmp[at]) { at += 1 }
        }
        out += xmp[at...]
        return out
    }

    /// `main` without its `xmpNote:HasExtendedXMP` attribute or element (the packet is whole again).
    static func withoutGUID(_ main: [UInt8]) -> [UInt8] {
        let name = Array("xmpNote:HasExtendedXMP".utf8)
        guard let at = find(name, in: main, from: 0) else { return main }
        if at > 0, main[at - 1] == UInt8(ascii: "<"),
           let end = find(Array("</xmpNote:HasExtendedXMP>".utf8), in: main, from: at) {
            return Array(main[..<(at - 1)] + main[(end + name.count + 3)...])
        }
        var start = at
        while start > 0, [0x20, 0x09, 0x0A, 0x0D].contains(main[start - 1]) { start -= 1 }
        guard let quote = main[(at + name.count)...].firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }),
              let closing = main[(quote + 1)...].firstIndex(of: main[quote]) else { return main }
        return Array(main[..<start] + main[(closing + 1)...])
    }

    /// The first index at or after `start` where `pattern` occurs in `bytes`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var at = start
        while at <= bytes.count - pattern.count {
            if bytes[at] == first, bytes[at..<(at + pattern.count)].elementsEqual(pattern) { return at }
            at += 1
        }
        return nil
    }

    /// The last index where `pattern` occurs in `bytes`.
    static func findLast(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        var at = bytes.count - pattern.count
        while at >= 0 {
            if bytes[at..<(at + pattern.count)].elementsEqual(pattern) { return at }
            at -= 1
        }
        return nil
    }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The GUID a main packet names in `xmpNote:HasExtendedXMP` (attribute or element), if any.
    static func guid(in main: [UInt8]) -> String? {
        guard let at = find(Array("xmpNote:HasExtendedXMP".utf8), in: main, from: 0) else { return nil }
        // Attribute (="GUID", spaces allowed around =) or element (>GUID<).
        var start = at + 22
        while start < main.count, [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains(main[start]) { start += 1 }
        guard start < main.count, [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: ">")].contains(main[start]),
              start + 33 <= main.count else { return nil }
        let digits = main[(start + 1)..<(start + 33)]
        let hex = Set("0123456789ABCDEFabcdef".utf8)
        guard digits.allSatisfy(hex.contains) else { return nil }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The main packet merged with its extended part: the extended packet's `rdf:Description`s go
    /// into the main packet's `rdf:RDF`, and `HasExtendedXMP` is dropped (the packet is whole
    /// again). `portions` are the extension segment bodies after the signature. Nil with a warning
    /// when the portions for the GUID are missing, overlap, disagree on the length or do not match
    /// the GUID's MD5.
    static func merged(main: [UInt8], portions: [ArraySlice<UInt8>]) -> (xmp: [UInt8]?, warning: String?) {
        guard let guid = guid(in: main) else {
            return (nil, portions.isEmpty ? nil : "extended XMP without a main packet naming it; ignored")
        }
        var length: Int?
        var parts: [(offset: Int, bytes: ArraySlice<UInt8>)] = []
        for portion in portions where portion.count >= headerSize {
            let start = portion.startIndex
            guard String(decoding: portion[start..<(start + 32)], as: UTF8.self).uppercased() == guid.uppercased() else { continue }
            func u32(_ at: Int) -> Int {
                Int(portion[at]) << 24 | Int(portion[at + 1]) << 16 | Int(portion[at + 2]) << 8 | Int(portion[at + 3])
            }
            let full = u32(start + 32), offset = u32(start + 36)
            if let length, length != full { return (nil, "extended XMP portions disagree on the length; ignored") }
            length = full
            parts.append((offset, portion[(start + headerSize)...]))
        }
        guard let length, !parts.isEmpty else { return (nil, "extended XMP \(guid) is missing; ignored") }
        // The declared length is checked against the portions present, and the cap, before any
        // memory is set aside for it.
        let present = parts.reduce(0) { $0 + $1.bytes.count }
        guard length <= maxLength else {
            return (nil, "extended XMP declares \(length) bytes, more than the \(maxLength) accepted; ignored")
        }
        guard present == length else {
            return (nil, "extended XMP is incomplete (\(present) of \(length) bytes); ignored")
        }
        var assembled: [UInt8] = []
        assembled.reserveCapacity(length)
        for part in parts.sorted(by: { $0.offset < $1.offset }) {
            guard part.offset == assembled.count else { return (nil, "extended XMP portions overlap or leave gaps; ignored") }
            assembled += part.bytes
        }
        guard Hex.string(MD5.digest(assembled), uppercase: true) == guid.uppercased() else {
            return (nil, "extended XMP does not match its MD5 digest \(guid); ignored")
        }
        let main = withoutGUID(main)
        guard let open = find(Array("<rdf:RDF".utf8), in: assembled, from: 0),
              let openEnd = find([UInt8(ascii: ">")], in: assembled, from: open),
              let innerEnd = findLast(Array("</rdf:RDF>".utf8), in: assembled), innerEnd > openEnd,
              let close = findLast(Array("</rdf:RDF>".utf8), in: main) else {
            return (nil, "extended XMP is not an RDF packet; ignored")
        }
        return (Array(main[..<close]) + assembled[(openEnd + 1)..<innerEnd] + main[close...], nil)
    }
}
