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
        let extended = Array(unwrapped(String(decoding: xmp, as: UTF8.self)).utf8)
        let guid = MD5.hex(extended)
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

    /// The packet with its `<?xpacket ...?>` processing instructions removed.
    static func unwrapped(_ text: String) -> String {
        text.replacing(#/<\?xpacket[^?]*\?>\s*/#, with: "")
    }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The GUID a main packet names in `xmpNote:HasExtendedXMP` (attribute or element), if any.
    static func guid(in main: [UInt8]) -> String? {
        let text = String(decoding: main, as: UTF8.self)
        let pattern = #/xmpNote:HasExtendedXMP(?:\s*=\s*["']|>)([0-9A-Fa-f]{32})/#
        return text.firstMatch(of: pattern).map { String($0.1) }
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
        var assembled: [UInt8] = []
        assembled.reserveCapacity(length)
        for part in parts.sorted(by: { $0.offset < $1.offset }) {
            guard part.offset == assembled.count, assembled.count + part.bytes.count <= length else {
                return (nil, "extended XMP portions overlap or leave gaps; ignored")
            }
            assembled += part.bytes
        }
        guard assembled.count == length else {
            return (nil, "extended XMP is incomplete (\(assembled.count) of \(length) bytes); ignored")
        }
        guard MD5.hex(assembled) == guid.uppercased() else {
            return (nil, "extended XMP does not match its MD5 digest \(guid); ignored")
        }
        let mainText = String(decoding: main, as: UTF8.self)
            .replacing(#/\s*xmpNote:HasExtendedXMP\s*=\s*["'][0-9A-Fa-f]{32}["']/#, with: "")
            .replacing(#/<xmpNote:HasExtendedXMP>[0-9A-Fa-f]{32}</xmpNote:HasExtendedXMP>/#, with: "")
        let extendedText = String(decoding: assembled, as: UTF8.self)
        guard let inner = extendedText.firstMatch(of: #/<rdf:RDF[^>]*>([\s\S]*)</rdf:RDF>/#)?.1,
              let close = mainText.firstRange(of: "</rdf:RDF>") else {
            return (nil, "extended XMP is not an RDF packet; ignored")
        }
        var text = mainText
        text.insert(contentsOf: inner, at: close.lowerBound)
        return (Array(text.utf8), nil)
    }
}
