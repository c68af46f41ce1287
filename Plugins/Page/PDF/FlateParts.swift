import CSumiCodecs
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

    /// Rows per band for the choice of zlib strategy.
    static let bandRows = 16

    /// PNG-predicted samples (not palette indices) as one zlib stream, the strategy chosen per band
    /// of `bandRows` rows from the predicted bytes themselves: a band where more than a tenth of
    /// the bytes are small residuals (1…4 either way: photo grain and gradients) is compressed with
    /// `Z_FILTERED` (deflate's short matches cost more than they save there), other bands (text and
    /// UI: zeros and sharp edges) with the default strategy; the strategy changes only between
    /// bands that differ, as each change ends a deflate block. As libpng's encoder does by default
    /// for its filtered rows, but band by band, which measured smaller on both kinds of content.
    /// The zlib level of `Z_FILTERED` bands at most: with that strategy deflate drops short matches
    /// and so searches its hash chains at nearly every byte of photo-like residuals; level 4's
    /// chains (16 long, against level 6's 128) cut the photo page's CPU by a fifth for 4 % more
    /// bytes on the page (measured on the 50-capture photo page, `compression: flate`: 10.1 s
    /// against 12.9 s of CPU, 24.9 MB against 24.0 MB; 0.2 wrote 27.2 MB in 10.5–11.5 s).
    static let filteredLevel: Int32 = 4

    static func compressSamples(_ rows: [UInt8], rowLength: Int, level: Int32) throws -> [UInt8] {
        let deflater = try DeflateStream(level: level)
        let out = ByteCollector()
        let stride = rowLength + 1, band = bandRows * stride
        var start = 0, filtered = false
        while start < rows.count {
            let end = min(rows.count, start + band)
            var small = 0
            rows.withUnsafeBufferPointer { r in
                var row = start
                while row < end {
                    // After each row's filter-type byte: 1…4 or 252…255 are those v where v + 4
                    // (wrapping) is at most 8, but for 0.
                    for i in (row + 1)..<(row + stride) {
                        let v = r[i]
                        small &+= (v &+ 4 <= 8 && v != 0) ? 1 : 0
                    }
                    row += stride
                }
            }
            let wanted = small * 10 > (end - start)
            if wanted != filtered && level >= 4 {
                try deflater.setStrategy(wanted ? Z_FILTERED : Z_DEFAULT_STRATEGY,
                                         level: wanted ? min(level, filteredLevel) : level, into: out)
                filtered = wanted
            }
            try rows.withUnsafeBufferPointer {
                try deflater.compress(UnsafeBufferPointer(rebasing: $0[start..<end]), flush: end < rows.count ? .none : .finish, into: out)
            }
            start = end
        }
        let adler = rows.withUnsafeBufferPointer { DeflateStream.adler32(1, $0) }
        let sink = ByteCollector()
        try join([(out.bytes, adler, rows.count)], into: sink)
        return sink.bytes
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

