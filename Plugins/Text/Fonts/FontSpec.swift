import SumiKit

/// What the `font` parameter asks for: a fontconfig family list (with optional fontconfig
/// properties after a colon, as in `"DejaVu Sans:bold"` or `"Noto Sans:style=Italic"`) or one font file.
enum FontSpec: Sendable, Hashable {
    case families([String], properties: String)
    case file(String)

    /// Family names fontconfig resolves itself, never reported as missing.
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy", "emoji", "system-ui", "math",
    ]

    /// Reads the parameter: text with a `/` or a font file extension is a path, anything else a
    /// comma-separated family list.
    init(parsing text: String) {
        let trimmed = text.trimming(" \t")
        let lower = trimmed.lowercased()
        let fontExtensions = [".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", ".pfb", ".pfa", ".dfont"]
        if trimmed.contains("/") || fontExtensions.contains(where: { lower.hasSuffix($0) }) {
            self = .file(trimmed)
        } else {
            let parts = trimmed.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let names = (parts.first.map(String.init) ?? "").split(separator: ",")
                .map { String($0).trimming(" \t\"'") }.filter { !$0.isEmpty }
            let properties = parts.count > 1 ? String(parts[1]).trimming(" \t") : ""
            self = .families(names.isEmpty ? ["sans-serif"] : names, properties: properties)
        }
    }
}
