#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How image-sized buffers are taken from the system.
///
/// Images come and go (a list's captures are decoded one after another, twice when stitched): left
/// to its own devices glibc's allocator raises its mmap threshold to the size of the first freed
/// image and then keeps freed images in per-thread arenas, so the resident size of a long run
/// drifts 50–130% above the memory in use. The program fixes the threshold at start-up (SumiEngine's
/// `AllocatorTuning`, allocator policy being the process's), so a buffer of `largeBytes` or more is
/// mapped on its own and returned at once when freed; `advise` asks for
/// transparent huge pages on such a buffer before it is first written, so mapping it anew costs
/// few page faults (where the kernel offers them with `madvise`, as Debian's does; elsewhere it
/// changes nothing).
public enum PixelMemory {
    /// Buffers at least this large are mapped on their own.
    public static let largeBytes = 4 << 20

    /// Asks for huge pages on the 2 MiB-aligned part of a large buffer not yet written.
    public static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if canImport(Glibc)
        guard buffer.count >= largeBytes, let base = buffer.baseAddress else { return }
        let huge = 2 << 20
        let start = (UInt(bitPattern: base) + UInt(huge - 1)) & ~UInt(huge - 1)
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~UInt(huge - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
