extension StringProtocol {
    /// The text without the leading and trailing characters made only of scalars in `characters`
    /// (no Foundation needed): `" x\t".trimming(" ")` is `"x\t"`; a CR LF pair, one `Character`,
    /// goes when both `\r` and `\n` are in `characters`.
    package func trimming(_ characters: String) -> String {
        let set = Set(characters.unicodeScalars)
        let trimmed: (Character) -> Bool = { $0.unicodeScalars.allSatisfy(set.contains) }
        guard let start = firstIndex(where: { !trimmed($0) }) else { return "" }
        let end = lastIndex(where: { !trimmed($0) }) ?? start
        return String(self[start...end])
    }

    /// The text without leading and trailing spaces, tabs and newlines.
    package func trimmingWhitespace() -> String { trimming(" \t\n\r") }
}
