/// Reads and writes the metadata segments of a JPEG: APP1 `Exif`, APP1 XMP (with Extended XMP
/// beyond one segment, see `ExtendedXMP`) and the APP2 `ICC_PROFILE` chunks. Only the markers before the image data are walked, every length checked.
enum JPEGSegments {
    static let exifSignature = Array("Exif\0\0".utf8)
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let iccSignature = Array("ICC_PROFILE\0".utf8)
    /// The largest segment body (65535 minus the length field).
    static let maxBody = 65533

    /// The metadata of `bytes`; ICC chunks are joined by their sequence numbers, and chunks missing,
    /// repeated or disagreeing on their count leave the profile out with a warning.
    static func read(_ bytes: [UInt8]) -> EmbeddedMetadata {
        var found = EmbeddedMetadata()
        var chunks: [Int: ArraySlice<UInt8>] = [:]
        var declaredCounts = Set<Int>()
        var iccProblem: String?
        var xmpPortions: [ArraySlice<UInt8>] = []
        forEachSegment(bytes) { marker, body in
            if marker == 0xE1, body.starts(with: exifSignature), found.exif == nil {
                found.exif = Array(body.dropFirst(exifSignature.count))
            } else if marker == 0xE1, body.starts(with: xmpSignature), found.xmp == nil {
                found.xmp = Array(body.dropFirst(xmpSignature.count))
            } else if marker == 0xE1, body.starts(with: ExtendedXMP.signature) {
                xmpPortions.append(body.dropFirst(ExtendedXMP.signature.count))
            } else if marker == 0xE2, body.starts(with: iccSignature) {
                let header = body.dropFirst(iccSignature.count)
                guard header.count >= 2 else { iccProblem = "an ICC profile chunk is empty"; return }
                let sequence = Int(header[header.startIndex]), count = Int(header[header.startIndex + 1])
                declaredCounts.insert(count)
                if chunks[sequence] != nil { iccProblem = "ICC profile chunk \(sequence) appears twice" }
                chunks[sequence] = header.dropFirst(2)
            }
        }
        if let main = found.xmp, ExtendedXMP.guid(in: main) != nil || !xmpPortions.isEmpty {
            let (whole, warning) = ExtendedXMP.merged(main: main, portions: xmpPortions)
            if let whole { found.xmp = whole }
            if let warning { found.warnings.append(warning) }
        } else if !xmpPortions.isEmpty {
            found.warnings.append("extended XMP without a main packet naming it; ignored")
        }
        if !chunks.isEmpty {
            let count = declaredCounts.first ?? 0
            if iccProblem == nil, declaredCounts.count != 1 {
                iccProblem = "ICC profile chunks disagree on their number (\(declaredCounts.sorted()))"
            }
            if iccProblem == nil {
                let missing = (1...max(1, count)).filter { chunks[$0] == nil }
                if count == 0 || !missing.isEmpty || chunks.count != count {
                    iccProblem = "ICC profile chunks are incomplete (have \(chunks.keys.sorted()) of \(count))"
                }
            }
            if let iccProblem {
                found.warnings.append("\(iccProblem); the profile is ignored and the image treated as sRGB")
            } else {
                found.icc = (1...count).flatMap { chunks[$0] ?? [] }
            }
        }
        return found
    }

    /// Calls `body(marker, segment body)` for each marker segment before the image data.
    static func forEachSegment(_ bytes: [UInt8], _ visit: (UInt8, ArraySlice<UInt8>) -> Void) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            if marker == 0xDA || marker == 0xD9 { return }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return }
            visit(marker, bytes[(at + 4)..<(at + 2 + length)])
            at += 2 + length
        }
    }

    /// `jpeg` with APP1 EXIF, APP1 XMP and APP2 ICC segments inserted after SOI and any JFIF APP0.
    /// Blocks too large for one segment are left out with a warning (EXIF and XMP), or split into
    /// numbered chunks (ICC).
    static func inserting(into jpeg: [UInt8], icc: [UInt8]?, exif: [UInt8]?, xmp: [UInt8]?,
                          warn: (String) -> Void) -> [UInt8] {
        var segments: [UInt8] = []
        func append(marker: UInt8, _ parts: [UInt8]...) {
            let length = parts.reduce(2) { $0 + $1.count }
            segments += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
            for part in parts { segments += part }
        }
        if let exif {
            if exif.count + exifSignature.count <= maxBody { append(marker: 0xE1, exifSignature, exif) }
            else { warn("EXIF block of \(exif.count) bytes does not fit a JPEG APP1 segment; not written") }
        }
        if let xmp {
            if xmp.count + xmpSignature.count <= maxBody {
                append(marker: 0xE1, xmpSignature, xmp)
            } else if xmp.count <= ExtendedXMP.maxLength {
                for body in ExtendedXMP.segments(for: xmp) { append(marker: 0xE1, body) }
            } else {
                warn("XMP packet of \(xmp.count) bytes is too large for JPEG; not written")
            }
        }
        if let icc, !icc.isEmpty {
            let chunkSize = maxBody - iccSignature.count - 2
            let count = (icc.count + chunkSize - 1) / chunkSize
            if count <= 255 {
                for index in 0..<count {
                    let part = Array(icc[(index * chunkSize)..<min(icc.count, (index + 1) * chunkSize)])
                    append(marker: 0xE2, iccSignature, [UInt8(index + 1), UInt8(count)], part)
                }
            } else {
                warn("ICC profile of \(icc.count) bytes is too large for JPEG; not written")
            }
        }
        guard !segments.isEmpty, jpeg.count >= 4 else { return jpeg }
        var insertAt = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            let length = Int(jpeg[4]) << 8 | Int(jpeg[5])
            if 4 + length <= jpeg.count { insertAt = 4 + length }
        }
        var out = [UInt8]()
        out.reserveCapacity(jpeg.count + segments.count)
        out += jpeg[..<insertAt]
        out += segments
        out += jpeg[insertAt...]
        return out
    }
}
