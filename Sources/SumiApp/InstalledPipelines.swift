#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// The pipelines found by name (`sumi run caption`): the user's own, in
/// `$XDG_DATA_HOME/sumi/pipelines` (by default `~/.local/share/sumi/pipelines`), then the shipped
/// ones (`Installation.pipelinesFolder`). A user's pipeline replaces a shipped one of the same name.
/// `sumi pipelines` lists them, completions offer them, and a name that is neither a file nor a
/// pipeline is an error with the nearest name.
package enum InstalledPipelines {
    /// One pipeline: its name (the file name without `.json`) and where it lies.
    package struct Entry: Sendable {
        package var name: String
        package var path: String
        package var shipped: Bool
    }

    /// The user's pipeline folder (whether or not it exists).
    package static var userFolder: String? {
        if let data = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), data.hasPrefix("/") {
            return data + "/sumi/pipelines"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else { return nil }
        return home + "/.local/share/sumi/pipelines"
    }

    /// The folders searched, first wins: the user's, then the shipped one.
    package static var folders: [(path: String, shipped: Bool)] {
        [userFolder.map { ($0, false) }, Installation.pipelinesFolder.map { ($0, true) }].compactMap { $0 }
    }

    /// Every pipeline by name, sorted; a missing or unreadable folder has none.
    package static func all() -> [Entry] {
        var found: [String: Entry] = [:]
        for folder in folders.reversed() where FileIO.isDirectory(folder.path) {
            guard let files = try? InputExpansion.entries(of: folder.path) else { continue }
            for file in files where file.hasSuffix(".json") && FileIO.isRegularFile(folder.path + "/" + file) {
                let name = String(file.dropLast(5))
                found[name] = Entry(name: name, path: folder.path + "/" + file, shipped: folder.shipped)
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// What `sumi run TARGET` opens: an existing file (or any path with a `/`), else the pipeline of
    /// that name (`thumbnail` or `thumbnail.json`); anything else is a usage error with the nearest
    /// pipeline name.
    package static func path(for target: String) throws(SumiError) -> String {
        if FileIO.exists(target) || target.contains("/") { return target }
        return try entry(named: target, in: all(), what: { "\"\($0)\" is neither a manifest file nor a pipeline" },
                         more: "; 'sumi pipelines' describes them").path
    }

    /// The pipeline `name` (`thumbnail` or `thumbnail.json`) of `entries`; else a usage error, `what`
    /// saying of the cut name what it is not, with the nearest pipeline name, the list and `more`.
    package static func entry(named name: String, in entries: [Entry], what: (String) -> String,
                              more: String = "") throws(SumiError) -> Entry {
        let wanted = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        if let entry = entries.first(where: { $0.name == wanted }) { return entry }
        let names = entries.map(\.name)
        throw SumiError.usage("\(what(MessageText.cut(name)))\(NameSuggestion.hint(wanted, in: names)) "
            + "(pipelines: \(names.isEmpty ? "none found" : names.joined(separator: ", "))\(more))")
    }

    /// The extension of the file a manifest writes by default (`pdf` for `out/fullpage.pdf`), or nil.
    package static func defaultOutputExtension(of manifest: Manifest) -> String? {
        let value: String? = switch manifest.parameter(named: "output")?.defaultValue {
        case .path(let path)?: path
        case .string(let path)?: path
        default: nil
        }
        guard let value else { return nil }
        let ext = FileIO.fileExtension(of: value)
        return ext.isEmpty ? nil : ext.lowercased()
    }
}
