import SumiEngine
import SumiKit

/// An output path with tokens filled in per input: `{stem}` (file name without extension), `{name}`
/// (file name), `{ext}` (extension without the dot), `{dir}` (the input's folder relative to its input
/// root, so a recursive batch mirrors its tree) and `{n}` (the input's 1-based position in the whole
/// input list, the same in every shard).
package struct OutputTemplate: Sendable {
    package static let tokens = ["stem", "name", "ext", "dir", "n"]

    package let text: String
    /// Where the template came from, for messages (`-o`, "the default output").
    package let origin: String

    /// Whether `text` holds any token (then each input gets its own output).
    /// Any `{word}` counts, so a misspelt token is reported rather than written literally.
    package static func isTemplate(_ text: String) -> Bool {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { return false }
            let word = after[..<close]
            if !word.isEmpty && word.allSatisfy({ $0.isLetter }) { return true }
            rest = after
        }
        return false
    }

    /// Checks that every `{…}` in `text` is a known token.
    package init(_ text: String, origin: String) throws(SumiError) {
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            let token = String(after[..<close])
            if !Self.tokens.contains(token) {
                throw SumiError.usage("\(origin): unknown token {\(token)}\(NameSuggestion.hint(token, in: Self.tokens)); known: " +
                                      Self.tokens.map { "{\($0)}" }.joined(separator: ", "))
            }
            rest = after[after.index(after: close)...]
        }
        self.text = text
        self.origin = origin
    }

    /// The path for one input (`number` is 1-based). An empty `{dir}` leaves no empty folder level.
    /// Tokens are filled in one pass, so a value holding `{n}` (an input named `{n}.png`) stays as
    /// it is. A value that would move the path to another folder is refused: `.` or `..` (the stem of
    /// `...png`), or a `/` in a value other than `{dir}`, whose folders may not be `.` or `..`.
    package func render(_ input: InputItem, number: Int) throws(SumiError) -> String {
        let path = input.path == "-" ? "stdin" : input.path
        let values: [String: String] = [
            "stem": FileIO.stem(of: path), "name": FileIO.fileName(of: path), "ext": Self.originalExtension(of: path),
            "n": String(number), "dir": input.relativeDirectory,
        ]
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] else {
                out += rest[...open]
                rest = after
                continue
            }
            let token = String(after[..<close])
            let parts = value.split(separator: "/", omittingEmptySubsequences: false)
            if value == "." || value == ".." || (token != "dir" && parts.count > 1) || (token == "dir" && parts.contains { $0 == "." || $0 == ".." }) {
                throw SumiError.usage("\(origin) \(text): {\(token)} of \(MessageText.cut(input.path)) is \"\(MessageText.cut(value))\", which would move the output to another folder; rename the input or use {n}")
            }
            out += rest[..<open]
            out += value
            rest = after[after.index(after: close)...]
        }
        out += rest
        while out.contains("//") { out = out.replacingAll("//", with: "/") }
        if out.hasPrefix("/"), !text.hasPrefix("/") { out.removeFirst() }
        return out
    }

    /// The extension as written (case kept), without the dot.
    package static func originalExtension(of path: String) -> String {
        let name = FileIO.fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The template `-o FOLDER` stands for: the folder, the input's `{dir}`, and its stem with the
    /// extension of the manifest's default output (or the input's whole name when there is none).
    package static func forFolder(_ folder: String, defaultOutput: String?) -> String {
        let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        let ext = defaultOutput.map { FileIO.fileExtension(of: $0) } ?? ""
        return ext.isEmpty ? "\(base)/{dir}/{name}" : "\(base)/{dir}/{stem}.\(ext)"
    }
}
