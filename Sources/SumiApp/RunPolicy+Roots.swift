import SumiEngine
import SumiKit

extension RunPolicy {
    /// The roots of this invocation; none (and no file system calls) outside a safe run.
    package func roots(items: [InputItem], inputs: [String], output: String?) -> Roots {
        safe ? Roots(items: items, inputs: inputs, output: output) : Roots(reads: [], fonts: [], write: nil)
    }

    /// The folders and files a safe run may reach, resolved once for all runs of an invocation:
    /// reads below the `-i` inputs, font files below the inputs' folders, writes below the folder
    /// of `-o`. All canonical (symbolic links and `..` resolved).
    package struct Roots {
        /// The `-i` files and folders (expanded: a folder's files, a list's files).
        package let reads: Set<String>
        /// The `-i` folders and the folders holding the `-i` files.
        package let fonts: Set<String>
        /// The folder of `-o`; nil when there is none (or it is standard output).
        package let write: String?
        /// Files the program opened itself beneath its root and hands over by their descriptor's
        /// name (`/proc/PID/fd/N`, `sumi serve`'s `GET /run`): read as they are, whatever name the
        /// open file has by now (a name swapped after the open does not matter).
        package var opened: Set<String> = []

        package init(reads: Set<String>, fonts: Set<String>, write: String?) {
            self.reads = reads
            self.fonts = fonts
            self.write = write
        }

        package init(items: [InputItem], inputs: [String], output: String?) {
            let given = inputs.filter { $0 != "-" && !$0.hasPrefix("@") }
            let files = items.map(\.path).filter { $0 != "-" }
            reads = Set((given + files).compactMap(SafePaths.canonical))
            fonts = Set(given.filter(FileIO.isDirectory).compactMap(SafePaths.canonical)
                        + Set(files.map(FileIO.directory)).compactMap(SafePaths.canonical))
            write = RunPolicy.writeRoot(output: output)
        }

        /// Whether the existing file `path` is one of `roots` or lies below one.
        package static func contains(_ path: String, in roots: Set<String>) -> Bool {
            guard let resolved = SafePaths.canonical(path) else { return false }
            var current = resolved
            while true {
                if roots.contains(current) { return true }
                guard current != "/" else { return false }
                current = FileIO.directory(of: current)
            }
        }
    }
}
