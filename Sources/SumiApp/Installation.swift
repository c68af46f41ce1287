#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// Where an installed Sumi finds its own files, relative to the binary, so an install under any
/// `PREFIX` (`/usr` for the Debian package, `/usr/local` for `make install`) and the build tree work
/// the same way:
/// - the share folder `BIN/../share/sumi` (shipped pipelines and their samples, found by name through
///   `InstalledPipelines`); in SwiftPM's build
///   tree (`SOURCE/.build/<triple>/<config>/sumi`), the source tree `SOURCE`;
/// - the system plugin folder `BIN/../lib/<triplet>/sumi/plugins`, where an administrator installs
///   plugins for every user, loaded by default in every mode.
package enum Installation {
    /// The Debian multiarch triplet the package and `make install` use for private libraries.
    package static let triplet = "x86_64-linux-gnu"

    /// The running binary's path, as the kernel knows it (symbolic links resolved), or nil if it
    /// cannot be read.
    package static let executable: String? = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// The folder holding the running binary.
    package static var binaryFolder: String? { executable.map(FileIO.directory) }

    /// The share folder (`…/share/sumi`), or the source tree when running from the build tree.
    package static let shareFolder: String? = {
        guard let bin = binaryFolder else { return nil }
        let installed = bin + "/../share/sumi"
        if FileIO.isDirectory(installed + "/pipelines") { return canonical(installed) }
        return buildTree(binaryFolder: bin)
    }()

    /// The source tree of a binary in SwiftPM's build tree: `SOURCE/.build/<triple>/<config>/sumi`
    /// with `SOURCE/Package.swift`, recognised by the binary's own place only — never by walking up
    /// to any folder holding a `VERSION` and `pipelines/` (a binary copied below a world-writable
    /// folder would serve what others planted there).
    package static func buildTree(binaryFolder bin: String) -> String? {
        let build = FileIO.directory(of: FileIO.directory(of: bin))
        guard FileIO.fileName(of: build) == ".build" else { return nil }
        let source = FileIO.directory(of: build)
        guard FileIO.isRegularFile(source + "/Package.swift"), FileIO.isDirectory(source + "/pipelines") else { return nil }
        return source
    }

    /// The system plugin folder, when it exists.
    package static var systemPluginFolder: String? {
        guard let bin = binaryFolder else { return nil }
        let folder = bin + "/../lib/\(triplet)/sumi/plugins"
        return FileIO.isDirectory(folder) ? canonical(folder) : nil
    }

    /// The shipped pipelines' folder.
    package static var pipelinesFolder: String? { shareFolder.map { $0 + "/pipelines" } }

    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
