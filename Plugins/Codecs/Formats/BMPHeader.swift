import SumiKit

/// The headers of a BMP file, read with every offset bounds-checked, following the readings of
/// bmpsuite that Pillow makes: OS/2 1.x (12-byte) and 2.x (16- and 64-byte) and Windows 3 to 5
/// (40 to 124-byte) info headers; the palette right after the headers (and bitfield masks) with as
/// many entries as the header says, however far the pixel data starts (pal8offs.bmp) and even when
/// it overlaps the pixels (a sparse OS/2 palette, pal8os2sp.bmp), entries past the end of the file
/// black; pixel data at the header's offset (or right after the palette when the offset points at
/// the palette itself); bitfield masks from the header or after a 40-byte one, for any pixel depth.
struct BMPHeader {
    enum Compression: Int {
        case none = 0, runLength8 = 1, runLength4 = 2, bitfields = 3, alphaBitfields = 6
    }

    let width: Int
    let height: Int
    /// Rows stored top row first (a negative height in the header).
    let topDown: Bool
    let bitsPerPixel: Int
    let compression: Compression
    /// Where the pixel data starts.
    let dataOffset: Int
    /// Palette colours as little-endian RGBA words (opaque), for 1 to 8-bit pixels: 2^bits entries.
    let palette: [UInt32]
    /// Red, green, blue and alpha for 16 and 32-bit pixels (16-bit: 5-5-5 unless bitfields say
    /// otherwise; 32-bit: blue, green, red and an unused byte).
    let masks: [BMPChannelMask]

    /// Whether the pixels carry alpha (an alpha bitfield mask).
    var hasAlpha: Bool { masks.count == 4 && masks[3].most != 0 }

    /// Bytes of one stored row (padded to 4 bytes).
    var rowBytes: Int { (width * bitsPerPixel + 31) / 32 * 4 }

    init(_ bytes: [UInt8], name: String) throws(StageError) {
        func corrupt(_ detail: String) -> StageError { StageError("\(name): corrupt BMP header (\(detail))") }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> UInt32 { UInt32(le16(at)) | UInt32(le16(at + 2)) << 16 }
        guard bytes.count >= 18 else { throw corrupt("the file is too short for a BMP header") }
        let headerSize = Int(le32(14))
        guard [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize) else { throw corrupt("unknown info header size \(headerSize)") }
        guard bytes.count >= 14 + headerSize else { throw StageError("\(name): truncated BMP data (the info header is cut off)") }
        var compressionCode = 0, colours = 0
        if headerSize == 12 {
            (width, height, topDown, bitsPerPixel) = (le16(18), le16(20), false, le16(24))
        } else {
            let storedHeight = Int(Int32(bitPattern: le32(22)))
            (width, height, topDown) = (Int(Int32(bitPattern: le32(18))), abs(storedHeight), storedHeight < 0)
            bitsPerPixel = le16(28)
            if headerSize >= 40 { (compressionCode, colours) = (Int(le32(30)), Int(le32(46))) }
        }
        // OS/2 2.x numbers its compressions differently: 3 is Huffman 1D, 4 is 24-bit run lengths.
        if headerSize == 64 && (compressionCode == 3 || compressionCode == 4) {
            throw corrupt("OS/2 \(compressionCode == 3 ? "Huffman" : "24-bit run-length") compression is not supported")
        }
        guard let compression = Compression(rawValue: compressionCode) else {
            throw corrupt(compressionCode == 4 || compressionCode == 5
                          ? "a BMP holding \(compressionCode == 4 ? "JPEG" : "PNG") data is not supported"
                          : "unknown compression \(compressionCode)")
        }
        self.compression = compression
        let bits = bitsPerPixel
        switch compression {
        case .none: guard [1, 2, 4, 8, 16, 24, 32].contains(bits) else { throw corrupt("\(bits) bits per pixel") }
        case .runLength8: guard bits == 8 else { throw corrupt("RLE8 with \(bits) bits per pixel") }
        case .runLength4: guard bits == 4 else { throw corrupt("RLE4 with \(bits) bits per pixel") }
        case .bitfields, .alphaBitfields: guard [16, 24, 32].contains(bits) else { throw corrupt("bitfields with \(bits) bits per pixel") }
        }

        // Masks: inside a 52-byte or longer header, else (a 40-byte one) right after it.
        var afterHeaders = 14 + headerSize
        var maskWords: [UInt32]
        switch (compression, bits) {
        case (.bitfields, _), (.alphaBitfields, _):
            let count = compression == .alphaBitfields ? 4 : 3
            let start = headerSize >= 52 ? 54 : afterHeaders
            if headerSize < 52 { afterHeaders += count * 4 }
            guard start + count * 4 <= bytes.count else { throw StageError("\(name): truncated BMP data (the bitfield masks are cut off)") }
            maskWords = (0..<count).map { le32(start + $0 * 4) }
            if count == 3 { maskWords.append(headerSize >= 56 ? le32(66) : 0) }
            // Pillow reads a 32-bit image whose masks are all zero as blue, green, red, alpha.
            if bits == 32, maskWords.allSatisfy({ $0 == 0 }) { maskWords = [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000] }
        case (_, 16): maskWords = [0x7C00, 0x3E0, 0x1F, 0]
        case (_, 32): maskWords = [0xFF_0000, 0xFF00, 0xFF, 0]
        default: maskWords = []
        }
        masks = maskWords.map(BMPChannelMask.init)

        // The palette, 3-byte entries for OS/2 1.x, else 4.
        let entrySize = headerSize == 12 ? 3 : 4
        let entries = bits <= 8 ? (colours > 0 ? colours : 1 << bits) : 0
        guard entries <= 65536 else { throw corrupt("a palette of \(colours) colours for \(bits)-bit pixels") }
        palette = bits <= 8 ? (0..<(1 << bits)).map { i in
            let at = afterHeaders + i * entrySize
            guard i < entries, at + 3 <= bytes.count else { return 0xFF00_0000 }
            return UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000
        } : []
        let offset = Int(le32(10))
        if offset == 0 || (offset == afterHeaders && bits <= 8) {
            dataOffset = afterHeaders + entries * entrySize
        } else {
            guard offset >= 14 + headerSize else { throw corrupt("pixel data offset \(offset) is inside the headers") }
            dataOffset = offset
        }
    }
}
