import SumiKit

/// The zlib stream of PNG-predicted rows, compressed as raw deflate parts (a strip is one part) and
/// joined: header, the parts, the Adler-32 of all the rows.
enum FlateParts {
    /// Predicted bytes given to zlib at a time within a part.
    static let batchBytes = 1 << 16

    /// Compresses one part's predicted rows (`rows.count` is a whole number of rows of
    /// `rowLength + 1` bytes) as raw deflate primed with `dictionary`; returns the bytes and the
    /// rows' Adler-32.
    static func compress(_ rows: [UInt8], rowLength: Int, dictionary: ArraySlice<UInt8>, last: Bool,
                         level: Int32) throws -> (bytes: [UInt8], adler: UInt32) {
        let deflater = try DeflateStream(level: level)
        if !dictionary.isEmpty { try deflater.setDictionary(Array(dictionary)) }
        let out = ByteCollector()
        let stride = rowLength + 1
        let batch = max(1, batchBytes / stride) * stride
        var start = 0
        repeat {
            let end = min(rows.count, start + batch)
            let flush: DeflateStream.Flush = end < rows.count ? .none : (last ? .finish : .sync)
            try rows.withUnsafeBufferPointer { try deflater.compress(UnsafeBufferPointer(rebasing: $0[start..<end]), flush: flush, into: out) }
            start = end
        } while start < rows.count
        let adler = rows.withUnsafeBufferPointer { DeflateStream.adler32(1, $0) }
        return (out.bytes, adler)
    }

    /// The zlib stream of compressed parts: header, the parts, the Adler-32 of all the rows.
    static func join(_ parts: [(bytes: [UInt8], adler: UInt32, length: Int)], into sink: any ByteOutput) throws {
        try sink.write([0x78, 0x9C])
        var adler: UInt32 = 1
        for (i, part) in parts.enumerated() {
            adler = i == 0 ? part.adler : DeflateStream.combine(adler, part.adler, secondLength: part.length)
            try sink.write(part.bytes)
        }
        try sink.write([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
    }
}

