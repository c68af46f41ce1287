#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SumiKit

extension RunOptions {
    /// The options the process's environment sets: `SOURCE_DATE_EPOCH` (whole seconds since 1970,
    /// not negative; anything else is ignored, as reproducible-build tools do), and
    /// `SUMI_MAX_PIXELS` (a whole number of pixels ≥ 1: the most of any image a stage makes,
    /// instead of `PixelLimits.standard`'s; anything else is ignored).
    public static var environment: RunOptions {
        let epoch = getenv("SOURCE_DATE_EPOCH").map { String(cString: $0) }.flatMap { Int($0) }
        var limits = PixelLimits.standard
        if let pixels = getenv("SUMI_MAX_PIXELS").map({ String(cString: $0) }).flatMap({ Int($0) }), pixels >= 1 {
            limits.maxPixels = pixels
        }
        return RunOptions(sourceDateEpoch: epoch.flatMap { $0 >= 0 ? $0 : nil }, limits: limits)
    }
}
