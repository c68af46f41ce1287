/// Reads and writes the metadata chunks of a WebP file (`ICCP`, `EXIF`, `XMP `), turning a simple
/// (`VP8 `/`VP8L`) file into the extended layout (`VP8X`) when metadata is added.
enum WebPChunks {
    static func le(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }

    static func read(_ bytes: [UInt8]) -> EmbeddedMetadata {
        var found = EmbeddedMetadata()
        forEachChunk(bytes) { type, data in
            switch type {
            case "ICCP": found.icc = Array(data)
            case "EXIF":
                // Some writers keep the JPEG "Exif\0\0" prefix.
                found.exif = data.starts(with: JPEGSegments.exifSignature) ? Array(data.dropFirst(6)) : Array(data)
            case "XMP ": found.xmp = Array(data)
            default: break
            }
        }
        return found
    }

    /// Calls `visit(type, data)` for each top-level chunk of the RIFF container.
    static func forEachChunk(_ bytes: [UInt8], _ visit: (String, ArraySlice<UInt8>) -> Void) {
        guard bytes.count >= 12 else { return }
        let end = min(bytes.count, 8 + le(bytes, 4, 4))
        var at = 12
        while at + 8 <= end {
            let type = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let length = le(bytes, at + 4, 4)
            guard length <= end - at - 8 else { return }
            visit(type, bytes[(at + 8)..<(at + 8 + length)])
            at += 8 + length + (length & 1)
        }
    }

    /// `webp` with the metadata added: ICCP after VP8X, EXIF and XMP at the end, flags set.
    static func inserting(into webp: [UInt8], width: Int, height: Int, icc: [UInt8]?, exif: [UInt8]?,
                          xmp: [UInt8]?) -> [UInt8] {
        guard icc != nil || exif != nil || xmp != nil, webp.count >= 20 else { return webp }
        var chunks: [(String, [UInt8])] = []
        forEachChunk(webp) { type, data in chunks.append((type, Array(data))) }
        var flags: UInt8 = 0
        if let index = chunks.firstIndex(where: { $0.0 == "VP8X" }), chunks[index].1.count >= 10 {
            flags = chunks[index].1[0]
            chunks.remove(at: index)
        } else if chunks.contains(where: { $0.0 == "ALPH" }) {
            flags |= 0x10
        } else if let lossless = chunks.first(where: { $0.0 == "VP8L" })?.1, lossless.count >= 5,
                  lossless[4] & 0x10 != 0 {
            flags |= 0x10
        }
        if icc != nil { flags |= 0x20 }
        if exif != nil { flags |= 0x08 }
        if xmp != nil { flags |= 0x04 }
        func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        var ordered: [(String, [UInt8])] = [("VP8X", [flags, 0, 0, 0] + le24(width - 1) + le24(height - 1))]
        if let icc { ordered.append(("ICCP", icc)) }
        ordered += chunks.filter { !["ICCP", "EXIF", "XMP "].contains($0.0) }
        if let exif { ordered.append(("EXIF", exif)) }
        if let xmp { ordered.append(("XMP ", xmp)) }
        var body = Array("WEBP".utf8)
        for (type, data) in ordered {
            body += Array(type.utf8)
            let n = data.count
            body += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)]
            body += data
            if n & 1 == 1 { body.append(0) }
        }
        let n = body.count
        return Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)] + body
    }
}
