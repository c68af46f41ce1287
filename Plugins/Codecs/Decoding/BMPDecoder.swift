import CSumiPixels
import SumiKit

/// Decodes BMP files: 1, 2, 4 and 8-bit palettes, 16, 24 and 32-bit pixels with or without bitfield
/// masks (alpha from an alpha mask only: a plain 32-bit BMP's fourth byte is padding, as Pillow
/// reads it), bottom-up or top-down rows, and RLE8/RLE4 (`BMPRunLengthDecoder`). The headers are
/// read by `BMPHeader`; the size is checked against the limits and the pixel data measured before
/// the first row is made, so a short file is an error, never a picture padded with black.
///
/// Rows flow as they are wanted, top first: a stored row is found in the file wherever it is (a
/// bottom-up file is read from its end), so nothing but the file and the ring takes memory.
enum BMPDecoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits) throws -> Image {
        try RowStream.collecting { try decode(bytes, name: name, limits: limits, into: $0) }
    }

    /// Decodes into `stream` (begun here at the image's size) row by row.
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, into stream: RowStream) throws {
        let header = try BMPHeader(bytes, name: name)
        try ImageHeader(width: header.width, height: header.height).check(name: name, format: .bmp, limits: limits)
        let runLength = header.compression == .runLength8 || header.compression == .runLength4
        // Pixels that run-length codes skip are transparent.
        let metadata = ImageMetadata(sourceFormat: ImageFormat.bmp.rawValue, sourcePath: name,
                                     knownOpaque: !header.hasAlpha && !runLength)
        let shape = ImageShape(width: header.width, height: header.height, metadata: metadata)
        if runLength {
            let runs = try BMPRunLengthDecoder(bytes, header: header, name: name)
            try stream.begin(shape)
            try stream.produceRows { y, row in runs.decodeRow(y, into: row) }
            return
        }
        try checkLength(bytes, header: header, name: name)
        try stream.begin(shape)
        try stream.produceRows { y, row in
            let start = header.dataOffset + (header.topDown ? y : header.height - 1 - y) * header.rowBytes
            decodeRow(bytes, from: start, header: header, into: row)
            if header.hasAlpha { sumi_premultiply(row, header.width) }
        }
    }

    /// Every row must be there before the first is made; the last one may lack its padding.
    private static func checkLength(_ bytes: [UInt8], header: BMPHeader, name: String) throws(StageError) {
        let lastRow = (header.width * header.bitsPerPixel + 7) / 8
        let (rows, overflow) = header.rowBytes.multipliedReportingOverflow(by: header.height - 1)
        let end = header.dataOffset + rows + lastRow
        guard !overflow, end <= bytes.count else {
            throw StageError("\(name): truncated BMP data (the header needs \(overflow ? "more" : String(end)) bytes, the file has \(bytes.count))")
        }
    }

    /// One stored row as straight RGBA (the hot loop of a BMP decode).
    private static func decodeRow(_ bytes: [UInt8], from start: Int, header: BMPHeader, into out: UnsafeMutablePointer<UInt8>) {
        func put(_ x: Int, _ rgba: UInt32) {
            let at = x * 4
            out[at] = UInt8(truncatingIfNeeded: rgba)
            out[at + 1] = UInt8(truncatingIfNeeded: rgba >> 8)
            out[at + 2] = UInt8(truncatingIfNeeded: rgba >> 16)
            out[at + 3] = UInt8(truncatingIfNeeded: rgba >> 24)
        }
        let bits = header.bitsPerPixel
        switch bits {
        case 1, 2, 4, 8:
            let perByte = 8 / bits, mask = (1 << bits) - 1
            for x in 0..<header.width {
                let byte = Int(bytes[start + x / perByte])
                put(x, header.palette[(byte >> (8 - bits * (x % perByte + 1))) & mask])
            }
        case 24 where header.compression == .none:
            for x in 0..<header.width {
                let at = start + x * 3
                put(x, UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000)
            }
        default:
            let masks = header.masks
            let size = bits / 8
            for x in 0..<header.width {
                let at = start + x * size
                var word: UInt32 = 0
                for i in 0..<size { word |= UInt32(bytes[at + i]) << (8 * i) }
                let rgba = masks[0].value(word, absent: 0) | masks[1].value(word, absent: 0) << 8
                    | masks[2].value(word, absent: 0) << 16 | masks[3].value(word, absent: 255) << 24
                put(x, rgba)
            }
        }
    }
}
