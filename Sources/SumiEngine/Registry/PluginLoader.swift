import Glibc
import Synchronization
import SumiKit

/// Loads plugin libraries (`.so` files exporting `sumi_plugin_init`, see `sumi_plugin.h`) and
/// registers their stages, with the library's path as their origin.
///
/// Every loading problem is a `SumiError` of kind `.usage` (exit code 2) naming the file: a missing
/// file, a library that is not a plugin, an ABI version mismatch, a malformed descriptor, or a stage
/// name that is already taken. The same library reached through two paths (two folders, a symbolic
/// or hard link) is opened once: libraries are known by device and inode. Libraries are never
/// unloaded. A version 2 library's formats go to the registry's `formats`.
public enum PluginLoader {
    /// Libraries opened so far in this process, by device and inode, and their canonical paths.
    private static let libraries = Mutex<(byFile: [FileIdentity: PluginLibrary], byPath: [String: PluginLibrary])>(([:], [:]))

    /// A file's identity on its file system, the same through every path that reaches it.
    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// Loads one plugin library and registers its stages into `registry`.
    /// `warn` receives the format clashes of a version 2 library (a built-in format wins).
    public static func loadLibrary(at path: String, into registry: StageRegistry,
                                   warn: (String) -> Void = { _ in }) throws(SumiError) {
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
        // Loading runs the library's constructors: only a file its owner alone can change, owned by
        // this user or root (as sudo and sshd ask of the files they trust).
        if info.st_uid != 0 && info.st_uid != geteuid() {
            throw SumiError.usage("plugin library \(path) belongs to another user (uid \(info.st_uid)); it is not loaded")
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            throw SumiError.usage("plugin library \(path) can be changed by other users (mode \(String(info.st_mode & 0o777, radix: 8))); it is not loaded")
        }
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        let library = try libraries.withLock { (opened: inout (byFile: [FileIdentity: PluginLibrary], byPath: [String: PluginLibrary])) throws(SumiError) -> PluginLibrary in
            if let known = opened.byFile[identity] { return known }
            let library = try PluginLibrary.open(canonicalPath(path))
            opened.byFile[identity] = library
            opened.byPath[library.path] = library
            return library
        }
        // Once per registry: a library opened before (for another registry) adds its formats here too.
        if !library.formats.isEmpty && !registry.formats.codecs.contains(where: { $0.origin == library.path }) {
            registry.formats.register(library.formats, warn: warn)
        }
        let definitions = library.definitions
        let present = definitions.filter { registry.definition(named: $0.descriptor.name)?.origin == library.path }
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
            do { try loadLibrary(at: path, into: registry, warn: warn) } catch {
                let canonical = canonicalPath(path)
                registry.recordBroken(path: canonical, reason: error.message)
                warn("plugin \(canonical) skipped: \(error.message)")
            }
        }
    }

    /// What a loaded library declared about itself, by canonical path.
    public static func library(at path: String) -> LibraryInfo? {
        libraries.withLock { $0.byPath[path].map {
            LibraryInfo(path: $0.path, abiVersion: $0.abiVersion, name: $0.name, version: $0.version,
                        licence: $0.licence, description: $0.description,
                        stages: $0.definitions.map(\.descriptor.name), formats: $0.formats.map(\.name),
                        bandStages: $0.bandStages)
        } }
    }

    /// Every library loaded in this process, by path.
    public static var loadedLibraries: [LibraryInfo] {
        let paths = libraries.withLock { Array($0.byPath.keys) }.sorted()
        return paths.compactMap { library(at: $0) }
    }

    /// A loaded plugin library as `sumi stages` and `sumi plugins` show it.
    public struct LibraryInfo: Sendable {
        public var path: String
        public var abiVersion: UInt32
        public var name: String
        public var version: String
        public var licence: String
        public var description: String
        public var stages: [String]
        public var formats: [String]
        /// The stages with band callbacks (they stream row bands instead of whole images).
        public var bandStages: [String]
    }

    /// Whether a folder's entry named `name` is one of the libraries it offers (`*.so`): the rule
    /// folder loading follows, and a manifest's `plugins` entry with it.
    public static func isLibraryName(_ name: String) -> Bool {
        name.hasSuffix(".so") && name != ".so"
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
            if isLibraryName(name) { names.append(name) }
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
