/// The wording of decoder errors.
enum DecoderMessage {
    /// Turns a codec library's error text into the message after the file name: the library's
    /// words when they already say which format is broken, otherwise prefixed "corrupt <format> data".
    static func text(_ message: String, format: String) -> String {
        if message.isEmpty { return "corrupt \(format) data" }
        if message.contains(format) || message.hasPrefix("truncated") { return message }
        return "corrupt \(format) data: \(message)"
    }
}

extension DecoderMessage {
    /// The text in a NUL-terminated C message buffer.
    static func text(ofBuffer buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
