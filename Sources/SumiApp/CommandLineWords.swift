/// A command-line word `--name=value` split into the option's name and its value given inline; any
/// other word is its own name, without a value. The command line and `sumi serve` parse alike.
package func splitInlineValue(_ word: String) -> (name: String, inline: String?) {
    guard word.hasPrefix("--"), let (name, value) = splitAssignment(word) else { return (word, nil) }
    return (name, value)
}

/// `NAME=VALUE` split at its first `=`, found among Unicode scalars rather than grapheme clusters:
/// a value that begins with a combining mark (U+0301, a ZWJ, a skin-tone modifier, Thai ั) would
/// otherwise join the `=` into one character and hide it. nil without an `=`.
package func splitAssignment(_ text: String) -> (name: String, value: String)? {
    let scalars = text.unicodeScalars
    guard let eq = scalars.firstIndex(of: "=") else { return nil }
    return (String(scalars[..<eq]), String(scalars[scalars.index(after: eq)...]))
}
