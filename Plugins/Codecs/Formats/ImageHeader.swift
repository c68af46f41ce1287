import SumiKit

/// An image's size read from the header alone, before any pixel memory is allocated.
struct ImageHeader {
    var width: Int
    var height: Int

    var pixelCount: Int { width * height }

    /// Reads the size of a GIF (logical screen), BMP or TIFF; nil when the header is malformed.
    /// (JPEG, PNG and WebP headers are read by their libraries.)
    static func probe(_ bytes: [UInt8], format: ImageFormat) -> ImageHeader? {
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int32 { Int32(bitPattern: UInt32(le16(at)) | UInt32(le16(at + 2)) << 16) }
        switch format {
        case .gif:
            guard bytes.count >= 10 else { return nil }
            return ImageHeader(width: le16(6), height: le16(8))
        case .bmp:
            guard bytes.count >= 26 else { return nil }
            if le32(14) == 12 { return ImageHeader(width: le16(18), height: le16(20)) }
            let w = Int(le32(18)), h = Int(le32(22))
            return ImageHeader(width: abs(w), height: abs(h))
        case .tiff:
            guard let ifd = TIFFDirectory(bytes), let w = ifd[TIFFDirectory.imageWidth],
                  let h = ifd[TIFFDirectory.imageLength] else { return nil }
            return ImageHeader(width: w, height: h)
        case .jpeg, .png, .webp:
            return nil
        }
    }

    /// Where the pixel rows of an uncompressed BMP end, from its headers (offset of the rows plus
    /// rows × padded row size); nil for compressed BMPs and headers that do not say. gdk-pixbuf
    /// fills the rows of a short file with black instead of failing, so the length is checked here.
    static func bmpPixelDataEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 26 else { return nil }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func le32(_ at: Int) -> Int { Int(Int32(bitPattern: UInt32(le16(at)) | UInt32(le16(at + 2)) << 16)) }
        let dataOffset = le32(10), headerSize = le32(14)
        let width: Int, height: Int, bitsPerPixel: Int
        if headerSize == 12 {
            (width, height, bitsPerPixel) = (le16(18), le16(20), le16(24))
        } else {
            guard headerSize >= 40, bytes.count >= 34 else { return nil }
            // 0: BI_RGB, 3: BI_BITFIELDS, 6: BI_ALPHABITFIELDS (rows stored as they are); others compress.
            guard [0, 3, 6].contains(le32(30)) else { return nil }
            (width, height, bitsPerPixel) = (abs(le32(18)), abs(le32(22)), le16(28))
        }
        guard dataOffset >= 14 + headerSize, bitsPerPixel > 0 else { return nil }
        let (bits, o1) = width.multipliedReportingOverflow(by: bitsPerPixel)
        let rowBytes = (bits + 31) / 32 * 4
        let (rows, o2) = rowBytes.multipliedReportingOverflow(by: height)
        let (end, o3) = dataOffset.addingReportingOverflow(rows)
        return o1 || o2 || o3 ? Int.max : end
    }

    /// Refuses a size that is empty or larger than `maxPixels`, naming the file.
    func check(name: String, format: ImageFormat, maxPixels: Int) throws(StageError) {
        guard width > 0, height > 0 else {
            throw StageError("\(name): \(format.displayName) header gives an empty image (\(width)x\(height))")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            let count = overflow ? "too many" : String(pixels)
            throw StageError("\(name): image is \(width)x\(height) (\(count) pixels), more than max-pixels \(maxPixels)")
        }
    }
}
