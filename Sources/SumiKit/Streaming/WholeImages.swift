#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether stages work on whole images only: `SUMI_STREAMING=0` (or `off`, as `Runner.streamingByDefault` reads it), which also turns the
/// engine's row streams off. Stages that take a list of images one at a time (`decode` of several
/// paths, `stitch`, `pdf-page`) then hold whole lists in memory, as they did before they could.
/// The output bytes are the same either way: tests compare the two paths, and the benchmark
/// measures what streaming saves.
public enum WholeImages {
    public static let forced: Bool = {
        guard let value = getenv("SUMI_STREAMING") else { return false }
        return ["0", "off", "no", "false"].contains(String(cString: value).lowercased())
    }()
}
