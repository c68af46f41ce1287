#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fresh folder of a test's own, made with `mkdtemp` under `$TMPDIR` (or `/tmp`): tests never write
/// at fixed paths, so a crowded temporary folder (a file or folder named `out`, another run's
/// leftovers) cannot collide with them. Stage tests, built-in or plugin, use it with `StageHarness`.
public struct TemporaryFolder: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Makes `$TMPDIR/sumi-LABEL-XXXXXX`.
    public init(_ label: String) throws(StageError) {
        path = try Self.make(label)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Removes the folder and everything in it.
    public func remove() { Self.removeTree(path) }

    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR, let stream = opendir(path) {
            var names: [String] = []
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(stream)
            for name in names { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// `$TMPDIR` without trailing slashes, or `/tmp` when it is unset or empty.
    public static var base: String {
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Makes a fresh folder named `sumi-LABEL-XXXXXX` under `base`; the label keeps its letters,
    /// digits and dashes (others become dashes) and at most 40 characters.
    public static func make(_ label: String) throws(StageError) -> String {
        let base = Self.base
        let safeLabel = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }.prefix(40))
        var template = Array("\(base)/sumi-\(safeLabel)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { throw StageError("cannot make a temporary folder in \(base): \(String(cString: strerror(errno)))") }
        return String(cString: made)
    }
}
