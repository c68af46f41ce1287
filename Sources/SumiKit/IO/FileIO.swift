#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading and writing whole files with POSIX calls (no Foundation), with errors that name the path.
public enum FileIO {
    /// Reads a whole file, or standard input for `-`. Refuses files larger than `limit` bytes.
    ///
    /// `prefix`, when given, is called once with the first `prefixLength` bytes as soon as they are
    /// read (not at all for a shorter file) and throws to refuse the rest: `/dev/zero` or an
    /// endless stream of zeros on standard input is refused after its first bytes, not 2 GiB later.
    public static func read(_ path: String, limit: Int = 1 << 31, prefixLength: Int = 32,
                            prefix: (([UInt8]) throws(StageError) -> Void)? = nil) throws(StageError) -> [UInt8] {
        try refuseNUL(path)
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StageError("\(path): \(errorText(errno))", cause: .io) }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw StageError("\(path): is a directory", cause: .io)
        }
        var bytes: [UInt8] = []
        let expected = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        bytes.reserveCapacity(expected > 0 ? expected : 1 << 16)
        var chunk = [UInt8](repeating: 0, count: max(1 << 16, min(expected + 1, 1 << 24)))
        var prefixChecked = prefix == nil
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StageError("\(path): \(errorText(errno))", cause: .io)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if !prefixChecked, bytes.count >= prefixLength, let prefix {
                prefixChecked = true
                try prefix(Array(bytes.prefix(prefixLength)))
            }
            if bytes.count > limit { throw StageError("\(path): file larger than \(limit) bytes", cause: .limit) }
        }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same folder, then renamed
    /// over the target, so a reader never sees a partial file and a failure leaves nothing behind.
    /// `-` writes to standard output. The temporary file is recorded in `record` while it exists
    /// (a stage passes `context.temporaryFiles`), so a process ended meanwhile can remove it.
    public static func writeAtomically(_ bytes: [UInt8], to path: String,
                                       recordedIn record: TemporaryFiles = TemporaryFiles()) throws(StageError) {
        try writeAtomically(to: path, recordedIn: record) { (fd: Int32) throws(StageError) in try writeAll(fd, bytes, path: path) }
    }

    /// Atomic write through a callback that writes to a file descriptor (for streamed output).
    ///
    /// A symbolic link is written through (its target is replaced, the link stays). A device, FIFO
    /// or socket (`/dev/null`, a named pipe) is written in place: renaming over it would replace the
    /// special file with a regular one.
    public static func writeAtomically(to path: String, recordedIn record: TemporaryFiles = TemporaryFiles(),
                                       _ body: (Int32) throws(StageError) -> Void) throws(StageError) {
        if path == "-" {
            try body(1)
            return
        }
        try refuseNUL(path)
        let target = resolvingSymbolicLink(path)
        var info = stat()
        let existing = stat(target, &info) == 0
        if existing, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            try writeInPlace(to: target, named: path, body)
            return
        }
        let dir = directory(of: target)
        let base = fileName(of: target)
        // mkstemp replaces the six trailing Xs with a unique suffix.
        let created = record.create(template: "\(dir)/.\(base).sumi-\(String(repeating: "X", count: 6))")
        guard case .success(let (fd, _, token)) = created else {
            let code = if case .failure(let error) = created { error.code } else { EIO }
            throw StageError("\(path): cannot write: \(errorText(code))", cause: .io)
        }
        var committed = false
        defer { if !committed { record.discard(token) } }
        do {
            try body(fd)
        } catch {
            close(fd)
            throw error
        }
        // A replaced file keeps its permissions; a new one gets the usual 0644 less the umask.
        let isRegular = existing && (info.st_mode & S_IFMT) == S_IFREG
        fchmod(fd, isRegular ? info.st_mode & 0o7777 : 0o644 & ~currentUmask())
        guard close(fd) == 0 else { throw StageError("\(path): cannot write: \(errorText(errno))", cause: .io) }
        let renamed = record.commit(token, to: target)
        guard renamed == 0 else { throw StageError("\(path): cannot write: \(errorText(renamed))", cause: .io) }
        committed = true
    }

    /// Writes straight into an existing special file (device, FIFO, socket).
    private static func writeInPlace(to target: String, named path: String,
                                     _ body: (Int32) throws(StageError) -> Void) throws(StageError) {
        let fd = open(target, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StageError("\(path): cannot write: \(errorText(errno))", cause: .io) }
        do {
            try body(fd)
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw StageError("\(path): cannot write: \(errorText(errno))", cause: .io) }
    }

    /// The file a symbolic link finally points to (the path itself when it is no link or the link
    /// is dangling).
    private static func resolvingSymbolicLink(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
              let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes every byte, retrying short writes.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(StageError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StageError("\(path): cannot write: \(errorText(errno))", cause: .io)
            }
            offset += n
        }
    }

    /// A path with a NUL byte would be cut there by every system call: refused, not silently
    /// shortened to another file's name.
    public static func refuseNUL(_ path: String) throws(StageError) {
        if path.utf8.contains(0) {
            throw StageError("\(MessageText.cut(path.replacingNUL)): a path may not contain a NUL character", isUsageError: true)
        }
    }

    /// Whether `path` names an existing directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` names an existing regular file (not a folder, device or named pipe).
    public static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` exists.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The folder part of a path (`.` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    public static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The file name without its extension.
    public static func stem(of path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The lower-cased extension without the dot (`""` when there is none).
    public static func fileExtension(of path: String) -> String {
        let name = fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// `strerror` as a Swift string.
    public static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
