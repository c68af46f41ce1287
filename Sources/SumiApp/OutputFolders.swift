#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// The folders that will hold a run's outputs (`-o new/a/b/x.jpg`), created before the runs like
/// `mkdir -p` so default outputs such as `out/caption.jpg` work in a fresh checkout — and removed
/// again, if still empty, when the runs wrote nothing there (they failed, or a signal ended them).
package enum OutputFolders {
    /// Creates the missing folders above each path (`-` is standard output) and records them.
    package static func create(for paths: [String]) {
        var created: [String] = []
        for path in paths where path != "-" {
            let folder = FileIO.directory(of: path)
            guard !FileIO.exists(folder) else { continue }
            var current = folder.hasPrefix("/") ? "" : "."
            for part in folder.split(separator: "/") {
                current += "/" + part
                if !FileIO.exists(current), mkdir(current, 0o755) == 0 { created.append(current) }
            }
        }
        SignalCleanup.temporaryFiles.rememberFolders(created)
    }

    /// Removes the created folders that are still empty.
    package static func removeUnused() {
        SignalCleanup.temporaryFiles.removeEmptyFolders()
    }
}
