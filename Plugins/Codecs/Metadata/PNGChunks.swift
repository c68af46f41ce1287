/// Reads and writes the metadata chunks of a PNG: `iCCP`, `sRGB`, `cICP`, `eXIf` and XMP in `iTXt`
/// (keyword `XML:com.adobe.xmp`); EXIF is also read from ImageMagick's raw profile text chunks
/// (`RawProfileText`) when there is no `eXIf`. Every chunk length is checked against the data.
enum PNGChunks {
    static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

    static func read(_ bytes: [UInt8]) -> EmbeddedMetadata {
        var found = EmbeddedMetadata()
        var rawEXIF: [UInt8]?
        var rawProfileSeen = false
        var at = 8
        chunks: while at + 12 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let start = at + 8
            guard length >= 0, length <= bytes.count - start - 4 else { break }
            let data = bytes[start..<(start + length)]
            switch type {
            case "iCCP":
                guard let nul = data.firstIndex(of: 0), nul + 2 <= data.endIndex, data[nul + 1] == 0 else {
                    found.warnings.append("PNG iCCP chunk is malformed; the image is treated as sRGB")
                    break
                }
                if let profile = Zlib.inflate(data[(nul + 2)...]) { found.icc = profile }
                else { found.warnings.append("PNG iCCP chunk does not decompress; the image is treated as sRGB") }
            case "cICP" where length == 4:
                found.cicp = (Int(data[start]), Int(data[start + 1]))
            case "eXIf":
                found.exif = Array(data)
            case "iTXt" where data.starts(with: xmpKeyword + [0]):
                found.xmp = internationalText(data.dropFirst(xmpKeyword.count + 1))
            case "tEXt", "zTXt":
                // Only the first raw EXIF profile is read: each may inflate to the limit.
                if !rawProfileSeen && RawProfileText.isEXIFKeyword(data) {
                    rawProfileSeen = true
                    rawEXIF = RawProfileText.exif(chunk: data, compressed: type == "zTXt")
                }
            case "IEND":
                break chunks
            default:
                break
            }
            at = start + length + 4
        }
        if found.exif == nil { found.exif = rawEXIF }
        return found
    }

    /// The text of an `iTXt` body after its keyword: flag, method, language, translated keyword, text.
    static func internationalText(_ rest: ArraySlice<UInt8>) -> [UInt8]? {
        guard rest.count >= 2 else { return nil }
        let compressed = rest[rest.startIndex] == 1
        let afterFlags = rest.dropFirst(2)
        guard let languageEnd = afterFlags.firstIndex(of: 0) else { return nil }
        let afterLanguage = afterFlags[(languageEnd + 1)...]
        guard let keywordEnd = afterLanguage.firstIndex(of: 0) else { return nil }
        let text = afterLanguage[(keywordEnd + 1)...]
        return compressed ? Zlib.inflate(text) : Array(text)
    }

    /// `png` with `iCCP`, `eXIf` and XMP `iTXt` chunks inserted after `IHDR`.
    static func inserting(into png: [UInt8], icc: [UInt8]?, exif: [UInt8]?, xmp: [UInt8]?) throws -> [UInt8] {
        var chunks: [UInt8] = []
        func append(_ type: String, _ data: [UInt8]) throws {
            let length = data.count
            chunks += [UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
                       UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            let body = Array(type.utf8) + data
            chunks += body
            let crc = try Zlib.crc32(body)
            chunks += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        if let icc, !icc.isEmpty { try append("iCCP", Array("ICC profile".utf8) + [0, 0] + Zlib.deflate(icc)) }
        if let exif { try append("eXIf", exif) }
        if let xmp { try append("iTXt", xmpKeyword + [0, 0, 0, 0, 0] + xmp) }
        let afterHeader = 8 + 25
        guard !chunks.isEmpty, png.count >= afterHeader else { return png }
        return Array(png[..<afterHeader]) + chunks + png[afterHeader...]
    }
}
