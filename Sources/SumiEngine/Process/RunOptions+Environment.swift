#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SumiKit

extension RunOptions {
    /// The options the process's environment sets: `SOURCE_DATE_EPOCH` (whole seconds since 1970,
    /// not negative; anything else is ignored, as reproducible-build tools do).
    public static var environment: RunOptions {
        let epoch = getenv("SOURCE_DATE_EPOCH").map { String(cString: $0) }.flatMap { Int($0) }
        return RunOptions(sourceDateEpoch: epoch.flatMap { $0 >= 0 ? $0 : nil })
    }
}
