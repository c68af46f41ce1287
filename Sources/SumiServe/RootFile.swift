#if canImport(Glibc)
import Glibc
#endif
import CSumiRuntime

/// A file below `--root`, opened once by the server and read by the worker through the open
/// descriptor, so a symbolic link swapped in after a check cannot send the run elsewhere.
///
/// The name is checked by its letters first (relative, no `..`), then opened beneath the root
/// without following any link (`sumi_open_beneath`: openat2, or an `O_NOFOLLOW` walk). Every
/// refusal — outside, through a link, missing, not a regular file — is the same `nil`, so an
/// answer cannot tell which paths exist outside the root.
final class RootFile: Sendable {
    let fd: Int32
    /// What the worker opens: the server's descriptor by its /proc name (the same open file,
    /// whatever the name below the root points at by then).
    let workerPath: String

    init?(root: String, relative: String) {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.utf8.contains(0),
              !relative.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." }) else { return nil }
        let folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        let fd = sumi_open_beneath(folder, relative, nil)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        self.fd = fd
        workerPath = "/proc/\(getpid())/fd/\(fd)"
    }

    deinit { close(fd) }
}
