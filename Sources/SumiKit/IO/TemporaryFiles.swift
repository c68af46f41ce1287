#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The temporary files of atomic writes in progress, and the output folders a run created, so that
/// a process ended by a signal (Ctrl-C, `kill`, a closed terminal, Ctrl-\) removes them: an
/// interrupted run leaves neither a partial output, nor a stray temporary file, nor an empty folder.
///
/// The signals are not handled in a signal handler (which could only touch a fixed table) but by a
/// thread that waits for them (`sigwait`) while every other thread keeps them blocked: it takes the
/// same lock as the writers, so any number of files is tracked, and a file is created and recorded
/// under that lock, so none slips between the two.
public enum TemporaryFiles {
    struct State {
        var files: [Int: String] = [:]
        var next = 0
        /// Folders created for outputs, in creation order (parents first).
        var folders: [String] = []
    }

    static let state = Mutex(State())

    /// The signals that end a run and clean up.
    static let endingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Creates a unique file from `template` (ending in six Xs, as `mkstemp` wants) and records it
    /// until `forget`. Returns the descriptor, the path and the record, or the `errno`.
    static func create(template: String) -> Result<(fd: Int32, path: String, token: Int), Errno> {
        state.withLock { state in
            var bytes = Array(template.utf8CString)
            let fd = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { return .failure(Errno(code: errno)) }
            let path = String(cString: bytes.map { UInt8(bitPattern: $0) })
            let token = state.next
            state.next += 1
            state.files[token] = path
            return .success((fd, path, token))
        }
    }

    /// Renames the file recorded as `token` to `target` and stops tracking it, in one step that a
    /// signal cannot split.
    static func commit(_ token: Int, to target: String) -> Int32 {
        state.withLock { state in
            guard let path = state.files[token] else { return EINVAL }
            guard rename(path, target) == 0 else { return errno }
            state.files[token] = nil
            return 0
        }
    }

    /// Removes the file recorded as `token` (a write that failed) and stops tracking it.
    static func discard(_ token: Int) {
        state.withLock { state in
            if let path = state.files.removeValue(forKey: token) { unlink(path) }
        }
    }

    /// Records folders created for outputs (parents first), removed on a signal if still empty.
    public static func rememberFolders(_ folders: [String]) {
        state.withLock { $0.folders += folders }
    }

    /// Removes the remembered folders that are still empty (deepest first) and forgets them all.
    public static func removeEmptyFolders() {
        state.withLock { state in
            for folder in state.folders.reversed() { rmdir(folder) }
            state.folders = []
        }
    }

    /// Blocks SIGINT, SIGTERM, SIGHUP and SIGQUIT in this thread (and so in every thread started
    /// after it: call this first) and starts the thread that waits for them. On one, it removes the
    /// temporary files and empty created folders, then ends the process as the signal would have
    /// (SIGQUIT without a core file). A signal the process was started ignoring stays ignored.
    /// SIGPIPE is ignored: a write to a closed pipe fails with EPIPE, and the run reports it.
    public static func removeOnSignal() {
        signal(SIGPIPE, SIG_IGN)
        var set = sigset_t()
        sigemptyset(&set)
        for sig in endingSignals {
            var current = sigaction()
            sigaction(sig, nil, &current)
            if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }  // SIG_IGN
            sigaddset(&set, sig)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let waiting = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        waiting.initialize(to: set)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { argument in
            guard let set = argument?.assumingMemoryBound(to: sigset_t.self) else { return nil }
            var received: Int32 = 0
            while sigwait(set, &received) != 0 {}
            TemporaryFiles.end(by: received)
        }, waiting)
        guard started == 0 else {
            // No thread to wait for them: the signals end the process as by default (its temporary
            // files stay), rather than being blocked for good.
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            waiting.deallocate()
            return
        }
        pthread_detach(thread)
    }

    /// Removes the temporary files and empty created folders, then exits with `status` at once
    /// (a limit that ends a run from another thread).
    public static func cleanUpAndExit(_ status: Int32) -> Never {
        state.withLock { (state: inout State) -> Void in
            for path in state.files.values { unlink(path) }
            for folder in state.folders.reversed() { rmdir(folder) }
            _exit(status)
        }
        _exit(status)
    }

    /// Cleans up, then ends the process by `sig`. The lock is kept: no write starts or commits after.
    static func end(by sig: Int32) -> Never {
        state.withLock { (state: inout State) -> Void in
            for path in state.files.values { unlink(path) }
            for folder in state.folders.reversed() { rmdir(folder) }
            if sig == SIGQUIT {
                var none = rlimit(rlim_cur: 0, rlim_max: 0)
                setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
            }
            signal(sig, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, sig)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(sig)
        }
        _exit(128 + sig)
    }
}

/// An `errno` value as an error.
struct Errno: Error {
    let code: Int32
}
