import SumiKit

/// Decodes run-length BMPs (RLE8, RLE4) straight into the final RGBA buffer.
///
/// A kilobyte of run-length codes can describe a 13000×13000 image: the codes are walked once
/// to check they cover every row before the one image buffer is allocated. As in gdk-pixbuf,
/// pixels the codes skip (end of line, delta) stay transparent (Pillow paints them with palette
/// entry 0); any code that points outside the image is clipped.
enum BMPRunLengthDecoder {
    static func decode(_ bytes: [UInt8], header: BMPHeader, name: String, metadata: ImageMetadata) throws -> Image {
        guard !header.topDown else { throw StageError("\(name): corrupt BMP data (a run-length image must be stored bottom-up)") }
        let nibbles = header.compression == .runLength4
        let rows = runLengthRows(bytes, from: header.dataOffset, height: header.height, pixelsPerByte: nibbles ? 2 : 1)
        guard rows >= header.height else {
            throw StageError("\(name): truncated BMP data (the run-length data ends after \(rows) of \(header.height) rows)")
        }
        var metadata = metadata
        metadata.knownOpaque = false
        var image = Image(width: header.width, height: header.height, fill: .transparent, metadata: metadata)
        image.pixels.withUnsafeMutableBytes { raw in
            decodeRuns(bytes, from: header.dataOffset, width: header.width, height: header.height, nibbles: nibbles,
                       palette: header.palette, into: raw.bindMemory(to: UInt32.self))
        }
        return image
    }

    /// Walks the run-length codes, writing palette colours (little-endian RGBA words) into `pixels`
    /// (`width * height`, top row first; BMP rows are stored bottom-up).
    static func decodeRuns(_ bytes: [UInt8], from start: Int, width: Int, height: Int, nibbles: Bool,
                           palette: [UInt32], into pixels: UnsafeMutableBufferPointer<UInt32>) {
        var at = start, x = 0, row = 0
        func put(_ index: Int) {
            if x < width, row < height { pixels[(height - 1 - row) * width + x] = palette[index] }
            x += 1
        }
        while row < height, at + 2 <= bytes.count {
            let count = Int(bytes[at]), code = Int(bytes[at + 1])
            at += 2
            if count > 0 {
                // A run: `count` pixels of one index (RLE4: two alternating indices).
                let first = x
                for i in 0..<min(count, max(0, width - x)) { put(nibbles ? (i & 1 == 0 ? code >> 4 : code & 15) : code) }
                x = first + count
                continue
            }
            switch code {
            case 0: x = 0; row += 1
            case 1: return
            case 2:
                guard at + 2 <= bytes.count else { return }
                x += Int(bytes[at])
                row += Int(bytes[at + 1])
                at += 2
            default:
                // Absolute: `code` literal indices, padded to a 16-bit boundary.
                let length = nibbles ? (code + 1) / 2 : code
                guard at + length <= bytes.count else { return }
                for i in 0..<code {
                    let index = nibbles ? (i & 1 == 0 ? Int(bytes[at + i / 2]) >> 4 : Int(bytes[at + i / 2]) & 15)
                                        : Int(bytes[at + i])
                    put(index)
                }
                at += (length + 1) & ~1
            }
        }
    }

    /// How many rows the run-length codes from `start` cover before the data ends (`height` when
    /// they reach the end-of-bitmap code or the last row, which some writers leave unterminated).
    static func runLengthRows(_ bytes: [UInt8], from start: Int, height: Int, pixelsPerByte: Int) -> Int {
        var at = start, rows = 0
        while rows < height {
            guard at + 2 <= bytes.count else { return rows == height - 1 ? height : rows }
            let count = Int(bytes[at]), code = Int(bytes[at + 1])
            at += 2
            guard count == 0 else { continue }          // a run: count pixels of one value
            switch code {
            case 0: rows += 1                           // end of line
            case 1: return height                       // end of bitmap
            case 2:                                     // delta: skip right and down
                guard at + 2 <= bytes.count else { return rows }
                rows += Int(bytes[at + 1])
                at += 2
            default:                                    // absolute: `code` literal pixels, word-aligned
                let length = (code + pixelsPerByte - 1) / pixelsPerByte
                at += (length + 1) & ~1
                if at > bytes.count { return rows }
            }
        }
        return height
    }
}
