#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// The time and memory budget of a process that runs pipelines written by others: a thread that
/// looks ten times a second at the monotonic clock and the resident memory (`/proc/self/statm`),
/// and ends the process cleanly (its temporary files removed, `SignalCleanup.cleanUpAndExit`) when
/// either passes its budget; plus an address-space limit far behind, so an allocation past it fails
/// rather than the machine swapping.
public enum RunWatchdog {
    /// What passed its budget: the message the process prints before it ends.
    public enum Exceeded: Sendable {
        case time(seconds: Int)
        case memory(usedBytes: Int, limitBytes: Int)
    }

    /// Starts the watch; `report` is called once, from the watch's thread, just before the
    /// process ends with `status`. Throws when the thread cannot be made: a budget that is not
    /// watched must not be taken as one.
    public static func start(seconds: Int, memoryBytes: Int, addressSpaceBytes: Int, status: Int32,
                             report: @escaping @Sendable (Exceeded) -> Void) throws(PosixThreads.StartFailure) {
        // Not under AddressSanitizer: its shadow memory alone takes terabytes of address space.
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil {
            var space = rlimit(rlim_cur: rlim_t(addressSpaceBytes), rlim_max: rlim_t(addressSpaceBytes))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space)
        }
        try PosixThreads.detach {
            let start = monotonicNanoseconds()
            let limit = seconds * 1_000_000_000
            while true {
                var tick = timespec(tv_sec: 0, tv_nsec: 100_000_000), left = timespec()
                while nanosleep(&tick, &left) != 0 { tick = left }
                // Nanoseconds, not whole seconds: a run started at x.9 s is not stopped at x+1 s.
                if monotonicNanoseconds() - start >= limit {
                    report(.time(seconds: seconds))
                    SignalCleanup.cleanUpAndExit(status)
                }
                let resident = residentBytes()
                if resident > memoryBytes {
                    report(.memory(usedBytes: resident, limitBytes: memoryBytes))
                    SignalCleanup.cleanUpAndExit(status)
                }
            }
        }
    }

    /// Monotonic time in nanoseconds.
    public static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    /// The process's resident memory, from /proc/self/statm (0 when it cannot be read).
    public static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count - 1)
        guard count > 0 else { return 0 }
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
