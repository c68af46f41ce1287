#if canImport(Glibc)
import Glibc
#endif
import SumiKit
import Synchronization

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

    /// The file's size and the hexadecimal SHA-256 of its bytes; nil when it is not a regular file
    /// that can be read, or is larger than `limit` (then `size` says how large).
    func digest(of path: String, limit: Int) -> (size: Int, hex: String?) {
        guard let version = Self.version(path) else { return (0, nil) }
        guard version.size <= limit else { return (version.size, nil) }
        if let (cached, hex) = entries.withLock({ $0[path] }), cached == version { return (version.size, hex) }
        guard let bytes = try? FileIO.read(path, limit: limit) else { return (version.size, nil) }
        let hex = SHA256.hex(SHA256.digest(bytes))
        // Kept only if the file did not change while it was read.
        if Self.version(path) == version {
            entries.withLock { cache in
                if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
                cache[path] = (version, hex)
            }
        }
        return (version.size, hex)
    }

    private static func version(_ path: String) -> Version? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Version(device: UInt(info.st_dev), inode: UInt(info.st_ino), size: Int(info.st_size),
                       modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec,
                       changed: info.st_ctim.tv_sec * 1_000_000_000 + info.st_ctim.tv_nsec)
    }
}
