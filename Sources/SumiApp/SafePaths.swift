#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// Path arithmetic for `--safe`: canonical paths (symbolic links and `..` resolved), so that a link
/// or a `../` cannot lead a read or write out of the folders it is confined to.
package enum SafePaths {
    /// The canonical form of an existing path; nil when it does not exist.
    package static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The canonical form of a path that may not exist yet (a file to write, in folders perhaps
    /// still to create): its nearest existing folder resolved, the rest appended. Nil when the part
    /// that does not exist holds `..` or `.`.
    package static func resolved(_ path: String) -> String? {
        if let whole = canonical(path) { return whole }
        var existing = FileIO.directory(of: path)
        var rest = [FileIO.fileName(of: path)]
        while canonical(existing) == nil, existing != ".", existing != "/" {
            rest.insert(FileIO.fileName(of: existing), at: 0)
            existing = FileIO.directory(of: existing)
        }
        guard let base = canonical(existing), !rest.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else { return nil }
        return ([base == "/" ? "" : base] + rest).joined(separator: "/")
    }

    /// Whether `path` is `root` or lies below it; with `creating`, `path` need not exist yet.
    package static func isBelow(_ path: String, root: String, creating: Bool) -> Bool {
        guard let resolved = creating ? resolved(path) : canonical(path) else { return false }
        return resolved == root || resolved.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// The strings a parameter value holds (a string, or a list of them).
    package static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let s): [s]
        case .array(let items): items.compactMap(\.stringValue)
        default: []
        }
    }

    /// Whether values of `type` can name files.
    package static func involvesPath(_ type: ParamType) -> Bool { type.pathAccess != nil }
}
