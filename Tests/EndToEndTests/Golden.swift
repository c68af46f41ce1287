import Foundation
import Testing

/// Reference outputs kept as SHA-256s: what the 0.2 engine (commit 0ffd623, release build) wrote
/// for the same command on the same generated input. Its streamed and whole-image paths gave the
/// same bytes (its tests compared them); the one path that replaced both must keep them.
enum Golden {
    /// The SHA-256 of a file, in hex.
    static func digest(_ path: String) -> String? {
        CLI.tool("/usr/bin/sha256sum", [path]).map { String(decoding: $0.prefix(64), as: UTF8.self) }
    }

    /// Expects the file at `path` to have the reference digest `table[name]`.
    static func expect(_ name: String, at path: String, in table: [String: String],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = digest(path) ?? "unreadable"
        guard let expected = table[name] else {
            Issue.record("no reference for \(name): its SHA-256 is \(actual)", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "\(name) differs from the reference output", sourceLocation: sourceLocation)
    }
}
