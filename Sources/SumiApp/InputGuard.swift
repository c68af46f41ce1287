#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// Refuses, before anything runs, a pipeline that would write over one of the batch's inputs: run 1
/// of `-i 2.png -i 1.png -o '{n}.png'` would replace `1.png` before run 2 reads it (or while, with
/// `--jobs`). An existing file is the same file by device and inode (so a link or another spelling
/// of the path is caught); a file still to be made, by its canonical folder and name.
package struct InputGuard {
    /// What identifies a file.
    package enum Key: Hashable {
        case file(device: UInt64, inode: UInt64)
        case name(String)
    }

    /// Every input of the batch (from `-i`, folders, `@list` and `@-` alike), by key.
    private let inputs: [Key: String]

    package init(items: [InputItem]) {
        var inputs: [Key: String] = [:]
        for item in items where item.path != "-" {
            if let key = Self.key(item.path), inputs[key] == nil { inputs[key] = item.path }
        }
        self.inputs = inputs
    }

    /// The key of `path`: its device and inode when it exists, else its canonical folder and name;
    /// nil for what is not a regular file (standard output, `/dev/null`) or a path that cannot be
    /// resolved.
    package static func key(_ path: String) -> Key? {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        return SafePaths.resolved(path).map(Key.name)
    }

    /// Throws a usage error naming the stage, the output and the input when `pipeline` writes one of
    /// the inputs.
    package func check(_ pipeline: Pipeline) throws(SumiError) {
        guard !inputs.isEmpty else { return }
        for target in PipelineWrites.targets(of: pipeline) where target.path != "-" {
            guard let key = Self.key(target.path), let input = inputs[key] else { continue }
            let which = input == target.path ? "an input" : "the input \(MessageText.cut(input))"
            throw SumiError(.usage, file: FileIO.fileName(of: pipeline.manifest.path), stage: target.node.entry.place,
                            parameter: target.parameter,
                            "the output \(MessageText.cut(target.path)) is \(which) of this batch; an output may not replace an input (write the outputs to another folder or name)")
        }
    }
}
