#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// An image's size read from the header alone, before any pixel memory is allocated.
struct ImageHeader {
    var width: Int
    var height: Int

    var pixelCount: Int { width * height }

    /// Refuses a size that is empty or outside `limits` (more pixels than `maxPixels`, rows wider
    /// than `maxWidth`), naming the file. Called on the header, before any row buffer exists: a
    /// 45,000,000×1 image is within 50 megapixels, but one of its rows is 180 MB.
    func check(name: String, format: ImageFormat, limits: PixelLimits) throws(StageError) {
        try check(name: name, formatName: format.displayName, limits: limits)
    }

    /// The same, for a format named `formatName` in the message.
    func check(name: String, formatName: String, limits: PixelLimits) throws(StageError) {
        guard width > 0, height > 0 else {
            throw StageError("\(name): \(formatName) header gives an empty image (\(width)x\(height))")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limits.maxPixels else {
            let count = overflow ? "too many" : String(pixels)
            throw StageError.limit("\(name): image is \(width)x\(height) (\(count) pixels), more than max-pixels \(limits.maxPixels)")
        }
        guard width <= limits.maxWidth else {
            throw StageError.limit("\(name): image is \(width)x\(height), rows of \(width) pixels, wider than this run allows "
                                   + "(\(limits.maxWidth))")
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
