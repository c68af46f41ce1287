import CSumiCodecs
import SumiKit

/// Decodes BMP files: 1, 2, 4 and 8-bit palettes, 16, 24 and 32-bit pixels with or without bitfield
/// masks (alpha from an alpha mask only: a plain 32-bit BMP's fourth byte is padding, as Pillow
/// reads it), bottom-up or top-down rows, and RLE8/RLE4 (`BMPRunLengthDecoder`). The headers are
/// read by `BMPHeader`; the size is checked against `maxPixels` and the pixel data measured before
/// the pixel buffer exists, so a short file is an error, never a picture padded with black.
enum BMPDecoder {
    static func decode(_ bytes: [UInt8], name: String, maxPixels: Int) throws -> Image {
        let header = try BMPHeader(bytes, name: name)
        try ImageHeader(width: header.width, height: header.height).check(name: name, format: .bmp, maxPixels: maxPixels)
        let metadata = ImageMetadata(sourceFormat: ImageFormat.bmp.rawValue, sourcePath: name, knownOpaque: !header.hasAlpha)
        switch header.compression {
        case .runLength8, .runLength4:
            return try BMPRunLengthDecoder.decode(bytes, header: header, name: name, metadata: metadata)
        case .none, .bitfields, .alphaBitfields:
            break
        }
        // Every row must be there; the last one may lack its padding.
        let rowBytes = header.rowBytes
        let lastRow = (header.width * header.bitsPerPixel + 7) / 8
        let (rows, overflow) = rowBytes.multipliedReportingOverflow(by: header.height - 1)
        let end = header.dataOffset + rows + lastRow
        guard !overflow, end <= bytes.count else {
            throw StageError("\(name): truncated BMP data (the header needs \(overflow ? "more" : String(end)) bytes, the file has \(bytes.count))")
        }
        var image = Image(width: header.width, height: header.height, metadata: metadata) { out in
            for y in 0..<header.height {
                let start = header.dataOffset + (header.topDown ? y : header.height - 1 - y) * rowBytes
                decodeRow(bytes, from: start, header: header, into: out, at: y * header.width * 4)
            }
        }
        if header.hasAlpha {
            image.pixels.withUnsafeMutableBytes { raw in
                if let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) { sumi_premultiply(base, raw.count / 4) }
            }
        }
        return image
    }

    /// One stored row as straight RGBA (the hot loop of a BMP decode).
    private static func decodeRow(_ bytes: [UInt8], from start: Int, header: BMPHeader,
                                  into out: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        func put(_ x: Int, _ rgba: UInt32) {
            let at = offset + x * 4
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
