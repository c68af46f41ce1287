#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The temporary files of atomic writes in progress, so that a process ended by a signal (Ctrl-C,
/// `kill`, a closed terminal) removes them: an interrupted run leaves neither a partial output nor a
/// stray temporary file. The paths live in fixed C buffers that a signal handler can read.
public enum TemporaryFiles {
    static let slotCount = 64
    static let slotSize = Int(PATH_MAX)

    /// `slotCount` NUL-terminated paths; an empty slot starts with NUL.
    nonisolated(unsafe) static let paths: UnsafeMutablePointer<CChar> = {
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: slotCount * slotSize)
        buffer.initialize(repeating: 0, count: slotCount * slotSize)
        return buffer
    }()

    /// Bit `i` set: slot `i` is taken.
    static let taken = Mutex<UInt64>(0)

    /// Remembers `path` until `forget`; nil when every slot is taken (the file is then only removed
    /// by the writer itself).
    static func remember(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < slotSize else { return nil }
        let slot: Int? = taken.withLock { mask in
            guard let free = (0..<slotCount).first(where: { mask & (1 << UInt64($0)) == 0 }) else { return nil }
            mask |= 1 << UInt64(free)
            return free
        }
        guard let slot else { return nil }
        let start = paths + slot * slotSize
        // The first byte goes last: a handler never sees a half-written path as taken.
        for (i, byte) in bytes.enumerated().dropFirst() { start[i] = CChar(bitPattern: byte) }
        start[bytes.count] = 0
        start[0] = CChar(bitPattern: bytes[0])
        return slot
    }

    static func forget(_ slot: Int?) {
        guard let slot else { return }
        paths[slot * slotSize] = 0
        taken.withLock { $0 &= ~(1 << UInt64(slot)) }
    }

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the remembered files, then end
    /// the process as the signal would have. A signal the process was started ignoring stays ignored;
    /// one it inherited blocked is unblocked (call this before starting threads), so that `kill` and
    /// Ctrl-C stop a run even when the parent process had them blocked.
    public static func removeOnSignal() {
        _ = paths
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&unblocked, sig) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(sig) { sig in
                for slot in 0..<TemporaryFiles.slotCount {
                    let path = TemporaryFiles.paths + slot * TemporaryFiles.slotSize
                    if path[0] != 0 { unlink(path) }
                }
                signal(sig, SIG_DFL)
                raise(sig)
            }
            if let previous, unsafeBitCast(previous, to: Int.self) == 1 {   // SIG_IGN
                signal(sig, SIG_IGN)
            }
        }
    }
}
