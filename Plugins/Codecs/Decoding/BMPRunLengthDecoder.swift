import SumiKit

/// Decodes run-length BMPs (RLE8, RLE4) straight into the final RGBA buffer.
///
/// A kilobyte of run-length codes can describe a 13000×13000 image; gdk-pixbuf would hold its own
/// full-size buffer while Sumi copies it into an `Image`, twice the memory at the peak. Decoding
/// here keeps one buffer. As in gdk-pixbuf, pixels the codes skip (end of line, delta) stay
/// transparent. The data is known to be complete (`BMPLayout.missingData` ran first); any code
/// that points outside the image is clipped.
enum BMPRunLengthDecoder {
    /// The image, or nil when `bytes` is not a bottom-up RLE8/RLE4 BMP with a palette (then
    /// gdk-pixbuf decodes it).
    static func decode(_ bytes: [UInt8], name: String) throws -> Image? {
        guard bytes.count >= 54 else { return nil }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int { Int(Int32(bitPattern: UInt32(le16(at)) | UInt32(le16(at + 2)) << 16)) }
        let dataOffset = le32(10), headerSize = le32(14)
        let width = le32(18), height = le32(22), bitsPerPixel = le16(28), compression = le32(30)
        guard headerSize >= 40, (compression == 1 && bitsPerPixel == 8) || (compression == 2 && bitsPerPixel == 4),
              width > 0 else { return nil }
        guard height > 0 else { throw StageError("\(name): corrupt BMP data (a run-length image must be stored bottom-up)") }
        let paletteStart = 14 + headerSize
        let declared = le32(46)
        let entries = declared > 0 && declared <= 1 << bitsPerPixel ? declared : 1 << bitsPerPixel
        guard paletteStart <= dataOffset, dataOffset <= bytes.count else {
            throw StageError("\(name): corrupt BMP header (pixel data offset \(dataOffset))")
        }
        // Palette entries are blue, green, red, unused; a short palette leaves the rest black.
        var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
        for i in 0..<min(entries, (dataOffset - paletteStart) / 4) {
            let at = paletteStart + i * 4
            palette[i] = UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000
        }
        let metadata = ImageMetadata(sourceFormat: ImageFormat.bmp.rawValue, sourcePath: name)
        var image = Image(width: width, height: height, fill: .transparent, metadata: metadata)
        image.pixels.withUnsafeMutableBytes { raw in
            decodeRuns(bytes, from: dataOffset, width: width, height: height, nibbles: compression == 2,
                       palette: palette, into: raw.bindMemory(to: UInt32.self))
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
}
