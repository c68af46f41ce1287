import CSumiCodecs
import SumiKit

/// A zlib stream from raw deflate parts compressed apart (`DeflateStream`): header, the parts, the
/// Adler-32 of all the bytes.
enum FlateParts {
    /// The zlib stream of compressed parts: header, the parts, the Adler-32 of all the rows.
    static func join(_ parts: [(bytes: [UInt8], adler: UInt32, length: Int)], into sink: any ByteOutput) throws {
        try sink.write([0x78, 0x9C])
        var adler: UInt32 = 1
        for (i, part) in parts.enumerated() {
            adler = i == 0 ? part.adler : try DeflateStream.combine(adler, part.adler, secondLength: part.length)
            try sink.write(part.bytes)
        }
        try sink.write([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
    }
}

