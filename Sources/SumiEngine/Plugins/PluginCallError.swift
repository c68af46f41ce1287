import CSumiPlugin
import SumiKit

/// A `sumi_error` owned by the host, and its conversion to Swift errors.
struct PluginCallError {
    var raw: sumi_error

    init() {
        raw = sumi_error()
        raw.size = UInt32(MemoryLayout<sumi_error>.size)
    }

    /// The plugin's message, or a description of `code` if it left none.
    func message(code: Int32) -> String {
        let text = Self.text(raw.message)
        return text.isEmpty ? PluginLibrary.statusName(code) : text
    }

    /// The plugin's message, if it wrote one.
    var text: String? {
        let text = Self.text(raw.message)
        return text.isEmpty ? nil : text
    }

    /// The parameter the plugin named, if any.
    var parameter: String? {
        let name = Self.text(raw.parameter)
        return name.isEmpty ? nil : name
    }

    /// Reads a fixed-size C character array up to its first NUL (or its end, if the plugin left none).
    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}
