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

    /// Lets up to `bytes` of freed memory stay at the top of the allocator's heaps instead of being
    /// given back at once (with the threshold fixed by `configure`, glibc gives back everything over
    /// 128 KiB): for a process that runs one job after another (a `sumi serve` worker), whose
    /// buffers below `PixelMemory.largeBytes` are then reused rather than faulted in afresh every time.
    public static func keepFreed(upTo bytes: Int) {
        _ = sumi_runtime_set_trim_threshold(bytes)
    }
}
