import Glibc
import Synchronization
import SumiKit

/// Loads plugin libraries (`.so` files exporting `sumi_plugin_init`, see `sumi_plugin.h`) and
/// registers their stages, with the library's path as their origin.
///
/// Every loading problem is a `SumiError` of kind `.usage` (exit code 2) naming the file: a missing
/// file, a library that is not a plugin, an ABI version mismatch, a malformed descriptor, or a stage
/// name that is already taken. Loading the same library twice is a no-op. Libraries are never
/// unloaded.
public enum PluginLoader {
    /// Libraries opened so far in this process, by canonical path.
    private static let libraries = Mutex<[String: PluginLibrary]>([:])

    /// Loads one plugin library and registers its stages into `registry`.
    public static func loadLibrary(at path: String, into registry: StageRegistry) throws(SumiError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT && lstat(path, &info) != 0 { throw SumiError.usage("plugin library \(path) does not exist") }
            throw SumiError.usage("plugin library \(path) cannot be opened: \(FileIO.errorText(errno))")
        }
        guard !FileIO.isDirectory(path) else {
            throw SumiError.usage("plugin library \(path) is a folder (use it as a plugin folder instead)")
        }
        // Loading a named pipe would wait for a writer forever.
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SumiError.usage("plugin library \(path) is not a regular file")
        }
        let canonical = canonicalPath(path)
        let library = try libraries.withLock { (opened: inout [String: PluginLibrary]) throws(SumiError) -> PluginLibrary in
            if let known = opened[canonical] { return known }
            let library = try PluginLibrary.open(canonical)
            opened[canonical] = library
            return library
        }
        let definitions = library.factories
        let present = definitions.filter { registry.definition(named: $0.descriptor.name)?.origin == canonical }
        if !definitions.isEmpty && present.count == definitions.count { return }
        // All or none: the registry checks every name before adding any.
        try registry.register(definitions)
    }

    /// Loads every `*.so` in `dir`, in name order, as GStreamer's registry does: a library that
    /// fails to load (not a plugin, another ABI, a malformed descriptor, a clashing name) is reported
    /// through `warn`, remembered in the registry as broken with its reason, and skipped, so one bad
    /// file does not stop commands that do not need it. A folder that does not exist is an error.
    public static func loadFolder(_ dir: String, into registry: StageRegistry,
                                  warn: (String) -> Void = { _ in }) throws(SumiError) {
        guard FileIO.isDirectory(dir) else {
            throw SumiError.usage("plugin folder \(dir) does not exist or is not a folder")
        }
        for name in try sharedLibraries(in: dir) {
            let path = dir.hasSuffix("/") ? dir + name : dir + "/" + name
            if FileIO.isDirectory(path) { continue }
            do { try loadLibrary(at: path, into: registry) } catch {
                let canonical = canonicalPath(path)
                registry.recordBroken(path: canonical, reason: error.message)
                warn("plugin \(canonical) skipped: \(error.message)")
            }
        }
    }

    /// The name and version a loaded library declared, by canonical path.
    public static func library(at path: String) -> (name: String, version: String)? {
        libraries.withLock { $0[path].map { ($0.name, $0.version) } }
    }

    /// The names of the `*.so` files in `dir`, sorted.
    static func sharedLibraries(in dir: String) throws(SumiError) -> [String] {
        guard let stream = opendir(dir) else {
            throw SumiError.usage("cannot read plugin folder \(dir): \(FileIO.errorText(errno))")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasSuffix(".so") && name != ".so" { names.append(name) }
        }
        return names.sorted()
    }

    /// The absolute path with symbolic links resolved (the path itself if that fails).
    static func canonicalPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
