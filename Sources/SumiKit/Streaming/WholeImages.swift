#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `SUMI_WHOLE_IMAGES=1` in the environment: stages that take a list of images one at a time
/// (`decode` of several paths, `stitch`, `pdf-page`) work on whole lists in memory instead, as they
/// did before they could. The output bytes are the same either way: tests compare the two paths, and
/// the benchmark measures what taking images in turn saves.
public enum WholeImages {
    public static let forced: Bool = getenv("SUMI_WHOLE_IMAGES").map { String(cString: $0) == "1" } ?? false
}
