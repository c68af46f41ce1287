/// Whether a BMP file holds all the pixel data its headers promise. gdk-pixbuf fills the rows of a
/// short file with black instead of failing, so the data is measured before decoding: the row bytes
/// of an uncompressed BMP, the run-length codes of an RLE8 or RLE4 one.
enum BMPLayout {
    /// The info-header sizes of the BMP versions gdk-pixbuf reads (OS/2 1.x and 2.x, Windows 3 to 5).
    static let headerSizes: Set<Int> = [12, 16, 40, 52, 56, 64, 108, 124]

    /// What is wrong with the file header, or nil. gdk-pixbuf allocates the info header and the
    /// gap before the pixels at the sizes the file states (a 4 GB allocation from 48 bytes, found
    /// by fuzzing): the info header must be one of a real BMP version, the pixels must start after
    /// it, and (`missingData`) inside the file.
    static func headerProblem(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 26 else { return "the file is too short for a BMP header" }
        func le32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        let dataOffset = le32(10), headerSize = le32(14)
        guard headerSizes.contains(headerSize) else { return "unknown info header size \(headerSize)" }
        guard dataOffset >= 14 + headerSize else { return "pixel data offset \(dataOffset) is inside the headers" }
        // The palette is allocated at the colour count the header gives (3 GB from a 377-byte
        // file, found by fuzzing): at most 2^bits colours (256 above 8 bits). A palette cut short is
        // truncated data, reported by `missingData`.
        if headerSize >= 40, bytes.count >= 50 {
            let bits = Int(bytes[28]) | Int(bytes[29]) << 8, colours = le32(46)
            let most = bits >= 1 && bits <= 8 ? 1 << bits : 256
            guard colours <= most else { return "a palette of \(colours) colours for \(bits)-bit pixels" }
        }
        return nil
    }

    /// What is missing, or nil when the data is complete (or the headers are not ones this judges).
    static func missingData(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 26 else { return nil }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int { Int(Int32(bitPattern: UInt32(le16(at)) | UInt32(le16(at + 2)) << 16)) }
        // Offsets and sizes are unsigned (an offset of 0xFFFF0036 read as negative escaped every
        // check, and gdk-pixbuf then grew its buffer to 4 GB: found by fuzzing); width and height
        // are signed (a negative height is a top-down BMP).
        func unsigned32(_ at: Int) -> Int { Int(UInt32(le16(at)) | UInt32(le16(at + 2)) << 16) }
        let dataOffset = unsigned32(10), headerSize = unsigned32(14)
        let width: Int, height: Int, bitsPerPixel: Int, compression: Int
        if headerSize == 12 {
            (width, height, bitsPerPixel, compression) = (le16(18), le16(20), le16(24), 0)
        } else {
            guard headerSize >= 40, bytes.count >= 34 else { return nil }
            (width, height, bitsPerPixel, compression) = (abs(le32(18)), abs(le32(22)), le16(28), le32(30))
        }
        guard dataOffset >= 14 + headerSize, bitsPerPixel > 0 else { return nil }
        switch compression {
        case 0, 3, 6:   // BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS: rows stored as they are
            let (bits, o1) = width.multipliedReportingOverflow(by: bitsPerPixel)
            let rowBytes = (bits + 31) / 32 * 4
            let (rows, o2) = rowBytes.multipliedReportingOverflow(by: height)
            let (end, o3) = dataOffset.addingReportingOverflow(rows)
            guard o1 || o2 || o3 || end > bytes.count else { return nil }
            return "the header needs \(o1 || o2 || o3 ? "more" : String(end)) bytes, the file has \(bytes.count)"
        case 1, 2:      // BI_RLE8, BI_RLE4
            let rows = runLengthRows(bytes, from: dataOffset, height: height, pixelsPerByte: compression == 1 ? 1 : 2)
            return rows < height ? "the run-length data ends after \(rows) of \(height) rows" : nil
        default:
            return dataOffset > bytes.count ? "the pixel data would start at byte \(dataOffset), the file has \(bytes.count)" : nil
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
