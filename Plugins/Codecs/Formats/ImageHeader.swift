#if canImport(Glibc)
import Glibc
#endif
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
        case .jpeg, .png, .webp, .heif, .avif:
            return nil
        }
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
        // A raised max-pixels must still not ask for more memory than the machine has: the
        // allocation would abort the process instead of failing.
        let memory = Int(sysconf(Int32(_SC_PHYS_PAGES))) &* Int(sysconf(Int32(_SC_PAGESIZE)))
        let (bytes, tooLarge) = pixels.multipliedReportingOverflow(by: 4)
        if memory > 0, tooLarge || bytes > memory {
            throw StageError("\(name): image is \(width)x\(height); its pixels need more memory than the machine has (\(memory >> 20) MiB)")
        }
    }
}
