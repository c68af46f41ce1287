import Synchronization

/// An image file format added by a plugin library: recognised by magic bytes (decoding) and file
/// extensions (encoding), like a gdk-pixbuf loader.
public struct PluginFormat: Sendable {
    /// `qoi`, `farbfeld`: the name reports and messages use.
    public var name: String
    /// Lower-case extensions without the dot.
    public var extensions: [String]
    /// The bytes every file of the format starts with.
    public var magic: [UInt8]
    /// The plugin library's path.
    public var origin: String
    /// Decodes encoded bytes, warning through `warn`; `sizeHint` (given the full size) says when a
    /// smaller image would do.
    public var decode: (@Sendable (_ bytes: [UInt8], _ warn: (String) -> Void, _ sizeHint: ((Size) -> Size?)?) throws -> Image)?
    /// Encodes an image to bytes.
    public var encode: (@Sendable (_ image: Image, _ context: StageContext) throws -> [UInt8])?

    public init(name: String, extensions: [String], magic: [UInt8], origin: String,
                decode: (@Sendable ([UInt8], (String) -> Void, ((Size) -> Size?)?) throws -> Image)?,
                encode: (@Sendable (Image, StageContext) throws -> [UInt8])?) {
        self.name = name; self.extensions = extensions; self.magic = magic; self.origin = origin
        self.decode = decode; self.encode = encode
    }

    /// Whether `bytes` start with the format's magic.
    public func matches(_ bytes: [UInt8]) -> Bool {
        bytes.count >= magic.count && bytes.prefix(magic.count).elementsEqual(magic)
    }
}

/// The image formats plugins add, which the built-in `decode` and `encode` consult for what their
/// own codecs do not recognise. The built-in formats always win: a plugin format whose magic bytes
/// a built-in recognises loses its decoder, one whose extension a built-in writes loses that
/// extension, each with a warning.
///
/// There is no registry of the process: the engine's stage registry owns one, and a running stage
/// reaches it as `StageContext.formats`.
public final class ImageFormatRegistry: Sendable {
    /// What the built-in codecs recognise: a format name for bytes, and for a file extension.
    package struct Builtins: Sendable {
        package var detect: @Sendable ([UInt8]) -> String?
        package var fileExtension: @Sendable (String) -> String?
        package init(detect: @escaping @Sendable ([UInt8]) -> String?, fileExtension: @escaping @Sendable (String) -> String?) {
            self.detect = detect
            self.fileExtension = fileExtension
        }
    }

    private struct State {
        var builtins: Builtins?
        var formats: [PluginFormat] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// Tells the registry which magic bytes and extensions the built-in codecs own.
    package func setBuiltins(_ builtins: Builtins) {
        state.withLock { $0.builtins = builtins }
    }

    /// Adds plugin formats. A decoder whose magic a built-in format (or an earlier plugin) already
    /// recognises, and an extension a built-in (or an earlier plugin) writes, are dropped with a
    /// warning naming both.
    package func register(_ formats: [PluginFormat], warn: (String) -> Void) {
        var messages: [String] = []
        state.withLock { state in
            for var format in formats {
                // Pad the magic so detectors that want a minimal length (BMP) still see their prefix.
                let probe = format.magic + [UInt8](repeating: 0, count: 64)
                if format.decode != nil {
                    if let builtin = state.builtins?.detect(probe) {
                        messages.append("plugin \(format.origin): format \"\(format.name)\" claims magic bytes of the built-in \(builtin) decoder; the built-in decoder is used")
                        format.decode = nil
                    } else if let earlier = state.formats.first(where: { $0.decode != nil && ($0.matches(probe) || format.matches($0.magic + [UInt8](repeating: 0, count: 64))) }) {
                        messages.append("plugin \(format.origin): format \"\(format.name)\" claims the magic bytes of format \"\(earlier.name)\" from \(earlier.origin), which is used")
                        format.decode = nil
                    }
                }
                format.extensions = format.extensions.filter { ext in
                    if let builtin = state.builtins?.fileExtension(ext) {
                        messages.append("plugin \(format.origin): format \"\(format.name)\" claims the extension .\(ext) of the built-in \(builtin) encoder; the built-in encoder is used")
                        return false
                    }
                    if let earlier = state.formats.first(where: { $0.encode != nil && $0.extensions.contains(ext) }) {
                        messages.append("plugin \(format.origin): format \"\(format.name)\" claims the extension .\(ext) of format \"\(earlier.name)\" from \(earlier.origin), which is used")
                        return false
                    }
                    return true
                }
                state.formats.append(format)
            }
        }
        messages.forEach(warn)
    }

    /// The plugin format that decodes `bytes` (by magic), if any.
    public func decoder(for bytes: [UInt8]) -> PluginFormat? {
        state.withLock { $0.formats.first { $0.decode != nil && $0.matches(bytes) } }
    }

    /// The plugin format that encodes files with extension `ext` (case-insensitive), if any.
    public func encoder(forExtension ext: String) -> PluginFormat? {
        let wanted = ext.lowercased()
        return state.withLock { $0.formats.first { $0.encode != nil && $0.extensions.contains(wanted) } }
    }

    /// The plugin format named `name` (case-insensitive) that encodes: what `encode format=NAME`
    /// picks when no built-in format has that name. The first registered wins.
    public func encoder(named name: String) -> PluginFormat? {
        let wanted = name.lowercased()
        return state.withLock { $0.formats.first { $0.encode != nil && $0.name.lowercased() == wanted } }
    }

    /// The most magic bytes a plugin format may give: a file's first `magicLimit` bytes are enough
    /// to recognise it.
    public static let magicLimit = 64

    /// Whether a plugin decodes files with extension `ext` (case-insensitive).
    public func decodes(fileExtension ext: String) -> Bool {
        let wanted = ext.lowercased()
        return state.withLock { $0.formats.contains { $0.decode != nil && $0.extensions.contains(wanted) } }
    }

    /// Every plugin format, in registration order.
    public var formats: [PluginFormat] { state.withLock { $0.formats } }
}
