import CSumiRuntime
import SumiKit

/// How the program's allocator is set up for images (see `PixelMemory`): a buffer of
/// `PixelMemory.largeBytes` or more is mapped on its own and returned at once when freed, so the
/// resident size of a long run follows the memory in use. Process policy, set once by the program.
public enum AllocatorTuning {
    /// Sets the allocator's mmap threshold (once, at start-up, before threads exist).
    public static func configure() {
        _ = sumi_runtime_set_mmap_threshold(PixelMemory.largeBytes)
    }
}
