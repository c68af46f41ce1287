#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A record of the temporary files of atomic writes in progress, and of the output folders a run
/// created: what a process ended early removes, so an interrupted run leaves neither a partial output,
/// nor a stray temporary file, nor an empty folder.
///
/// It only records; the program that runs pipelines owns the record and decides when to clean up
/// (SumiEngine's `SignalCleanup` on a signal or a `--safe` limit) and hands it to stages as
/// `StageContext.temporaryFiles`, which `FileIO.writeAtomically(_:to:recordedIn:)` records into. A
/// file is created and recorded under one lock, and `removeAll(then:)` takes the same lock, so none
/// slips between the two.
public final class TemporaryFiles: Sendable {
    struct State {
        var files: [Int: String] = [:]
        var next = 0
        /// Folders created for outputs, in creation order (parents first).
        var folders: [String] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Creates a unique file from `template` (ending in six Xs, as `mkstemp` wants) and records it
    /// until `forget`. Returns the descriptor, the path and the record, or the `errno`.
    func create(template: String) -> Result<(fd: Int32, path: String, token: Int), Errno> {
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
    func commit(_ token: Int, to target: String) -> Int32 {
        state.withLock { state in
            guard let path = state.files[token] else { return EINVAL }
            guard rename(path, target) == 0 else { return errno }
            state.files[token] = nil
            return 0
        }
    }

    /// Removes the file recorded as `token` (a write that failed) and stops tracking it.
    func discard(_ token: Int) {
        state.withLock { state in
            if let path = state.files.removeValue(forKey: token) { unlink(path) }
        }
    }

    /// Records folders created for outputs (parents first), removed on a signal if still empty.
    public func rememberFolders(_ folders: [String]) {
        state.withLock { $0.folders += folders }
    }

    /// Removes the remembered folders that are still empty (deepest first) and forgets them all.
    public func removeEmptyFolders() {
        state.withLock { state in
            for folder in state.folders.reversed() { rmdir(folder) }
            state.folders = []
        }
    }

    /// Removes every recorded temporary file and the remembered folders still empty, then runs
    /// `end` with the lock still held (it ends the process): no write starts or commits after.
    public func removeAll(then end: () -> Void) {
        state.withLock { (state: inout State) -> Void in
            for path in state.files.values { unlink(path) }
            for folder in state.folders.reversed() { rmdir(folder) }
            state.files = [:]
            state.folders = []
            end()
        }
    }
}

/// An `errno` value as an error.
struct Errno: Error {
    let code: Int32
}
