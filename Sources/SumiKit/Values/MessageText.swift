/// Text from a manifest quoted in a message: cut to a readable length, so a 10 MB stage name gives
/// a one-line error, not a 20 MB one.
public enum MessageText {
    /// The most characters of one quoted name or value.
    public static let maxQuoted = 80

    /// `text` when short, else its first `maxQuoted` characters and a note of the full length.
    public static func cut(_ text: String) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex, count < maxQuoted {
            end = text.index(after: end)
            count += 1
        }
        guard end < text.endIndex else { return text }
        return "\(text[..<end])… (\(text.utf8.count) bytes)"
    }
}

extension String {
    /// The string with each NUL shown as `\0`, for messages.
    var replacingNUL: String {
        String(String.UnicodeScalarView(unicodeScalars.flatMap { $0 == "\0" ? ["\\", "0"] : [$0] }))
    }
}
