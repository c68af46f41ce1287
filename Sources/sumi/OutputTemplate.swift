import SumiEngine
import SumiKit

/// An output path with tokens filled in per input: `{stem}` (file name without extension), `{name}`
/// (file name), `{ext}` (extension without the dot), `{dir}` (the input's folder relative to its input
/// root, so a recursive batch mirrors its tree) and `{n}` (the input's 1-based position in the whole
/// input list, the same in every shard).
struct OutputTemplate: Sendable {
    static let tokens = ["stem", "name", "ext", "dir", "n"]

    let text: String

    /// Whether `text` holds any token (then each input gets its own output).
    /// Any `{word}` counts, so a misspelt token is reported rather than written literally.
    static func isTemplate(_ text: String) -> Bool {
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
    init(_ text: String, origin: String) throws(SumiError) {
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
    }

    /// The path for one input (`number` is 1-based). An empty `{dir}` leaves no empty folder level.
    func render(_ input: InputItem, number: Int) -> String {
        let path = input.path == "-" ? "stdin" : input.path
        var out = text.replacingAll("{stem}", with: FileIO.stem(of: path))
        out = out.replacingAll("{name}", with: FileIO.fileName(of: path))
        out = out.replacingAll("{ext}", with: Self.originalExtension(of: path))
        out = out.replacingAll("{n}", with: String(number))
        out = out.replacingAll("{dir}", with: input.relativeDirectory)
        while out.contains("//") { out = out.replacingAll("//", with: "/") }
        if out.hasPrefix("/"), !text.hasPrefix("/") { out.removeFirst() }
        return out
    }

    /// The extension as written (case kept), without the dot.
    static func originalExtension(of path: String) -> String {
        let name = FileIO.fileName(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The template `-o FOLDER` stands for: the folder, the input's `{dir}`, and its stem with the
    /// extension of the manifest's default output (or the input's whole name when there is none).
    static func forFolder(_ folder: String, defaultOutput: String?) -> String {
        let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        let ext = defaultOutput.map { FileIO.fileExtension(of: $0) } ?? ""
        return ext.isEmpty ? "\(base)/{dir}/{name}" : "\(base)/{dir}/{stem}.\(ext)"
    }
}
