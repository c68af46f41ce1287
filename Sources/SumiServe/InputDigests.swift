#if canImport(Glibc)
import Glibc
#endif
import SumiKit
import Synchronization
import SumiCrypto

/// The SHA-256 of files below `--root`, for the `ETag` of `GET /run`, kept while the file stays
/// the same one: same device and inode, size, and modification and change times (nanoseconds; any
/// write changes the change time). Hashing the 1 MB sample photo cost about a third of the server's
/// time per request; a hit costs one `stat`. At most `capacity` files are kept (then the cache
/// starts again empty).
final class InputDigests: Sendable {
    /// What identifies one version of a file.
    private struct Version: Equatable {
        let device: UInt, inode: UInt, size: Int
        let modified: Int, changed: Int
    }

    private let entries = Mutex<[String: (Version, String)]>([:])
    let capacity: Int

    init(capacity: Int = 4096) { self.capacity = capacity }

    /// The open file's size and the hexadecimal SHA-256 of its bytes, cached under `key` (the name
    /// below --root); nil when it is not a regular file that can be read, or is larger than `limit`
    /// (then `size` says how large). Read with `pread`: the descriptor's offset does not move.
    func digest(of fd: Int32, key: String, limit: Int) -> (size: Int, hex: String?) {
        guard let version = Self.version(fd) else { return (0, nil) }
        guard version.size <= limit else { return (version.size, nil) }
        if let (cached, hex) = entries.withLock({ $0[key] }), cached == version { return (version.size, hex) }
        guard let hex = Self.sha256(fd, size: version.size) else { return (version.size, nil) }
        // Kept only if the file did not change while it was read.
        if Self.version(fd) == version {
            entries.withLock { cache in
                if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
                cache[key] = (version, hex)
            }
        }
        return (version.size, hex)
    }

    /// The hexadecimal SHA-256 of the first `size` bytes of `fd`, read in pieces with `pread`; nil
    /// when the file ends early or cannot be read.
    private static func sha256(_ fd: Int32, size: Int) -> String? {
        var hash = SHA256()
        var piece = [UInt8](repeating: 0, count: min(size, 1 << 16))
        var done = 0
        while done < size {
            let n = piece.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, min($0.count, size - done), off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            piece.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            done += n
        }
        return Hex.string(hash.finish())
    }

    private static func version(_ fd: Int32) -> Version? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Version(device: UInt(info.st_dev), inode: UInt(info.st_ino), size: Int(info.st_size),
                       modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec,
                       changed: info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec)
    }
}
