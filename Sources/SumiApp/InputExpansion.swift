#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit
import SumiCodecs

/// One input file of a run, with the folder it was found under (so `{dir}` can mirror a tree).
package struct InputItem: Sendable, Hashable {
    /// The path as it will be decoded.
    package var path: String
    /// The folder of `path` relative to the input root it was found under: `""` for a file named
    /// directly or at the top of a folder input, `"a/b"` for `ROOT/a/b/x.jpg` with `--recursive`.
    package var relativeDirectory: String
}

/// Turns what follows `-i` (and the positional inputs) into a list of files: paths as given, globs the
/// shell left unexpanded, folders (their images, by extension and content; `--recursive` descends),
/// `@list.txt` (one path a line) and `@-` (the list on standard input).
package struct InputExpansion {
    /// The largest list `@LIST` or `@-` may be (about two million paths): a larger one, or an
    /// endless stream on standard input, is a usage error rather than memory taken without bound.
    package static let maxListBytes = 256 << 20

    package var recursive = false
    /// Non-images in a folder are an error instead of a warning.
    package var strict = false
    /// Receives warnings (files skipped in folders).
    package var warn: (String) -> Void = { _ in }
    /// The plugin formats that count as images too.
    package var formats = ImageFormatRegistry()

    package func expand(_ specs: [String]) throws(SumiError) -> [InputItem] {
        var items: [InputItem] = []
        var standardInputUsed = false
        for spec in specs {
            if spec.hasPrefix("@") && spec.count > 1 {
                let list = String(spec.dropFirst())
                if list == "-" {
                    guard !standardInputUsed else { throw SumiError.usage("-i @-: standard input can be read only once") }
                    standardInputUsed = true
                }
                items += try expandList(list)
            } else {
                items += try expandOne(spec, origin: "-i \(spec)")
            }
        }
        return items
    }

    /// One `-i` value: `-`, an existing file or folder, or a glob pattern.
    package func expandOne(_ spec: String, origin: String) throws(SumiError) -> [InputItem] {
        if spec == "-" { return [InputItem(path: "-", relativeDirectory: "")] }
        if FileIO.isDirectory(spec) { return try expandFolder(spec) }
        if !FileIO.exists(spec), Self.isGlob(spec) {
            let matches = Self.glob(spec)
            guard !matches.isEmpty else {
                throw SumiError.usage("\(origin): the pattern matches no file")
            }
            var items: [InputItem] = []
            for match in matches {
                if FileIO.isDirectory(match) { items += try expandFolder(match) }
                else { items.append(InputItem(path: match, relativeDirectory: "")) }
            }
            return items
        }
        // A missing file is reported by the run that decodes it, as a single -i always was.
        return [InputItem(path: spec, relativeDirectory: "")]
    }

    /// `@list`: one path a line; blank lines and lines starting with `#` are skipped. Every file must
    /// exist (a list is usually generated, and a stale one should stop the batch before it starts).
    package func expandList(_ list: String) throws(SumiError) -> [InputItem] {
        let name = list == "-" ? "standard input" : list
        let bytes: [UInt8]
        do { bytes = try FileIO.read(list, limit: Self.maxListBytes) } catch {
            if error.message.hasSuffix("larger than \(Self.maxListBytes) bytes") {
                throw SumiError.usage("-i @\(list): \(name) holds more than \(Self.maxListBytes >> 20) MiB; split the list")
            }
            throw SumiError.usage("-i @\(list): cannot read the list: \(error.message)")
        }
        var items: [InputItem] = []
        var missing: [String] = []
        for (number, raw) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.hasPrefix("#") { continue }
            if FileIO.isDirectory(line) {
                items += try expandFolder(line)
            } else if FileIO.exists(line) {
                items.append(InputItem(path: line, relativeDirectory: ""))
            } else {
                missing.append("line \(number + 1): \(line)")
            }
        }
        if !missing.isEmpty {
            throw SumiError.usage("-i @\(list): \(missing.count) file\(missing.count == 1 ? "" : "s") in \(name) do\(missing.count == 1 ? "es" : "") not exist (\(Self.sample(missing)))")
        }
        return items
    }

    /// The images in a folder, sorted by name; `--recursive` descends into sub-folders (symbolic links
    /// to folders are not followed, so a link loop cannot make the list endless). Hidden entries are
    /// skipped; other files that are not images are skipped with a warning, or refused with `--strict`.
    func expandFolder(_ root: String) throws(SumiError) -> [InputItem] {
        var items: [InputItem] = []
        var skipped: [String] = []
        var pending = [""]
        let base = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        while !pending.isEmpty {
            let relative = pending.removeFirst()
            let folder = relative.isEmpty ? base : "\(base)/\(relative)"
            let entries: [String]
            do { entries = try Self.entries(of: folder) } catch {
                throw SumiError.usage("-i \(root): \(error.message)")
            }
            var subfolders: [String] = []
            for entry in entries where !entry.hasPrefix(".") {
                let path = "\(folder)/\(entry)"
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                if kind == S_IFDIR {
                    if recursive { subfolders.append(relative.isEmpty ? entry : "\(relative)/\(entry)") }
                    continue
                }
                if kind == S_IFLNK, FileIO.isDirectory(path) { continue }
                if FileIO.isRegularFile(path), Self.isImage(path, formats: formats) {
                    items.append(InputItem(path: path, relativeDirectory: relative))
                } else {
                    skipped.append(path)
                }
            }
            pending.insert(contentsOf: subfolders, at: 0)
        }
        if !skipped.isEmpty {
            let message = "\(root): \(skipped.count) file\(skipped.count == 1 ? " is" : "s are") not \(skipped.count == 1 ? "an image" : "images") (\(Self.sample(skipped)))"
            if strict { throw SumiError.usage("-i \(message); remove \(skipped.count == 1 ? "it" : "them") or leave out --strict") }
            warn("\(message); skipped")
        }
        return items
    }

    /// Whether a file looks like an image this tool decodes: a known extension and matching content.
    /// A plugin's format counts too (its extension and its magic bytes).
    static func isImage(_ path: String, formats: ImageFormatRegistry) -> Bool {
        let formats = BuiltinCodecs.resolve(formats)
        guard formats.decodes(fileExtension: FileIO.fileExtension(of: path)) else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: ImageFormatRegistry.magicLimit)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return false }
        let bytes = Array(head.prefix(n))
        return formats.decoder(for: bytes).map { !$0.isFallback } ?? false
    }

    /// A folder's entry names, sorted by bytes (the same order on every machine and every run).
    package static func entries(of folder: String) throws(StageError) -> [String] {
        guard let dir = opendir(folder) else { throw StageError("cannot read the folder: \(FileIO.errorText(errno))") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func isGlob(_ text: String) -> Bool {
        text.contains("*") || text.contains("?") || text.contains("[")
    }

    /// Expands a pattern with glob(3), sorted.
    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, 0, nil, &result) == 0 else { return [] }
        var paths: [String] = []
        for i in 0..<Int(result.gl_pathc) {
            if let p = result.gl_pathv[i] { paths.append(String(cString: p)) }
        }
        return paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// `a/./b` and `a//b` name the same file as `a/b`.
    static func normalized(_ path: String) -> String {
        path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }

    /// The first few items of a list, for messages.
    static func sample(_ items: [String]) -> String {
        items.prefix(3).joined(separator: ", ") + (items.count > 3 ? ", and \(items.count - 3) more" : "")
    }
}
