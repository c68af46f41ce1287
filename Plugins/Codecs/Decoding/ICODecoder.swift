import CSumiPixels
import SumiKit

/// Decodes Windows icons and cursors (`ICOFile`): the largest entry, through the PNG reader when it
/// is a PNG (how 256-pixel icons and most favicons are stored), else as the BMP image ICO stores —
/// its info header (40, 108 or 124 bytes) without the file header, twice the height for the colour
/// rows and the 1-bit transparency mask below them, 1 to 32 bits a pixel. A 32-bit entry's alpha is
/// its fourth byte (the mask when every one of those is 0); other depths take the mask's, right after
/// the colour rows (as image-rs reads it; Pillow counts it back from the entry's end).
enum ICODecoder {
    static func decode(_ bytes: [UInt8], name: String, limits: PixelLimits, warn: (String) -> Void) throws -> Image {
        let file = try ICOFile(bytes, name: name)
        let entry = file.largest
        // The directory's byte count is not trusted to hold the entry (cursor writers give 8, say):
        // the image's own header says how much it reads, up to the end of the file.
        let data = Array(bytes[entry.offset...])
        var image: Image
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            image = try PNGDecoder.decode(data, name: "\(name) (entry \(entry.index + 1), PNG)", limits: limits, warn: warn)
            image.metadata = ImageMetadata(sourceFormat: ImageFormat.ico.rawValue, sourcePath: name,
                                           knownOpaque: image.metadata.knownOpaque)
        } else {
            image = try decodeBitmap(data, name: "\(name) (entry \(entry.index + 1))", limits: limits)
            image.metadata = ImageMetadata(sourceFormat: ImageFormat.ico.rawValue, sourcePath: name)
        }
        image.metadata.sourcePath = name
        return image
    }

    /// An entry stored as a BMP without its file header.
    static func decodeBitmap(_ data: [UInt8], name: String, limits: PixelLimits) throws -> Image {
        func u16(_ at: Int) -> Int { Int(data[at]) | Int(data[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard data.count >= 40 else { throw StageError("\(name): truncated bitmap header (\(data.count) bytes)") }
        let headerSize = u32(0)
        guard headerSize >= 40, headerSize <= data.count else {
            throw StageError("\(name): unsupported bitmap header of \(headerSize) bytes (expected 40, 108 or 124)")
        }
        let width = Int(Int32(truncatingIfNeeded: UInt32(u32(4))))
        let stored = Int(Int32(truncatingIfNeeded: UInt32(u32(8))))
        let bits = u16(14), compression = u32(16), coloursUsed = u32(32)
        let height = abs(stored) / 2, topDown = stored < 0
        guard [1, 2, 4, 8, 16, 24, 32].contains(bits) else { throw StageError("\(name): unsupported bitmap depth \(bits)") }
        guard compression == 0 || (compression == 3 && (bits == 16 || bits == 32)) else {
            throw StageError("\(name): unsupported bitmap compression \(compression) in an icon")
        }
        try ImageHeader(width: width, height: height).check(name: name, formatName: "ICO", limits: limits)
        // BI_BITFIELDS after a 40-byte header: three masks follow it (their usual 5-5-5 / 8-8-8 values
        // are what this reader assumes).
        var paletteStart = headerSize + (compression == 3 && headerSize == 40 ? 12 : 0)
        var palette: [UInt32] = []
        if bits <= 8 {
            let count = coloursUsed > 0 && coloursUsed <= 1 << bits ? coloursUsed : 1 << bits
            guard paletteStart + count * 4 <= data.count else { throw StageError("\(name): truncated bitmap palette") }
            palette = (0..<count).map { StoredBGR.rgba(data, at: paletteStart + $0 * 4, bits: 32, alpha: false) }
            paletteStart += count * 4
        }
        let rowBytes = (width * bits + 31) / 32 * 4, maskBytes = (width + 31) / 32 * 4
        let pixelStart = paletteStart, maskStart = pixelStart + rowBytes * height
        guard maskStart <= data.count else {
            throw StageError("\(name): truncated bitmap data (\(height) rows need \(maskStart) bytes, the entry has \(data.count))")
        }
        // The mask may be missing from a 32-bit entry (its alpha is in the pixels).
        let hasMask = maskStart + maskBytes * height <= data.count
        guard hasMask || bits == 32 else { throw StageError("\(name): truncated bitmap data (the transparency mask is missing)") }
        func storedRow(_ y: Int) -> Int { topDown ? y : height - 1 - y }
        var alphaInPixels = false
        if bits == 32 {
            outer: for y in 0..<height {
                let start = pixelStart + y * rowBytes
                for x in 0..<width where data[start + x * 4 + 3] != 0 { alphaInPixels = true; break outer }
            }
        }
        return Image(width: width, height: height, metadata: ImageMetadata()) { out in
            for y in 0..<height {
                let row = storedRow(y), start = pixelStart + row * rowBytes, mask = maskStart + row * maskBytes
                for x in 0..<width {
                    var rgba: UInt32
                    switch bits {
                    case 1, 2, 4, 8:
                        let perByte = 8 / bits
                        let byte = Int(data[start + x / perByte])
                        let index = (byte >> (8 - bits * (x % perByte + 1))) & ((1 << bits) - 1)
                        rgba = index < palette.count ? palette[index] : 0xFF00_0000
                    default:
                        // 16-bit 5-5-5 (its top bit no alpha here), 24-bit BGR, 32-bit BGRA.
                        rgba = StoredBGR.rgba(data, at: start + x * bits / 8, bits: bits, alpha: alphaInPixels)
                    }
                    if !alphaInPixels && hasMask && data[mask + x / 8] & (0x80 >> UInt8(x % 8)) != 0 { rgba = 0 }
                    let o = (y * width + x) * 4
                    out[o] = UInt8(truncatingIfNeeded: rgba)
                    out[o + 1] = UInt8(truncatingIfNeeded: rgba >> 8)
                    out[o + 2] = UInt8(truncatingIfNeeded: rgba >> 16)
                    out[o + 3] = UInt8(truncatingIfNeeded: rgba >> 24)
                }
                sumi_premultiply(out.baseAddress! + y * width * 4, width)
            }
        }
    }
}
