/// A command-line word `--name=value` split into the option's name and its value given inline; any
/// other word is its own name, without a value. The command line and `sumi serve` parse alike.
package func splitInlineValue(_ word: String) -> (name: String, inline: String?) {
    guard word.hasPrefix("--"), let eq = word.firstIndex(of: "=") else { return (word, nil) }
    return (String(word[..<eq]), String(word[word.index(after: eq)...]))
}
