import Synchronization

/// One image file format: how its files are recognised and named, and what Sumi does with them.
/// Every format registers as one of these — the built-in codecs (`SumiCodecs`), gdk-pixbuf's
/// loaders and a plugin library's formats alike — and `decode`, `encode`, `sumi formats`,
/// `inspect`, the service's `format=` and the editor all read the same `ImageFormatRegistry`.
public struct ImageCodec: Sendable {
    /// What a decode is asked for.
    public struct DecodeRequest {
        public var bytes: [UInt8]
        /// The file's name in messages.
        public var name: String
        /// Apply the stored orientation.
        public var orient: Bool
        /// The run's pixel limits, checked at the header before any pixel memory.
        public var limits: PixelLimits
        /// Given the full upright size, the size the consumer needs (a JPEG decodes DCT-scaled).
        public var sizeHint: ((Size) -> Size?)?
        /// The same bytes were decoded before without error (checksums need not be checked again).
        public var verified: Bool
        /// Refuse a damaged file rather than decode what can be read with a warning.
        public var strict: Bool
        /// Which frame of an animation, from 1 (`Decoder.frames` says whether the format has them).
        public var frame: Int
        public var warn: (String) -> Void

        public init(bytes: [UInt8], name: String, orient: Bool = true, limits: PixelLimits = .standard,
                    sizeHint: ((Size) -> Size?)? = nil, verified: Bool = false, strict: Bool = false, frame: Int = 1,
                    warn: @escaping (String) -> Void = { _ in }) {
            self.bytes = bytes; self.name = name; self.orient = orient; self.limits = limits
            self.sizeHint = sizeHint; self.verified = verified; self.strict = strict; self.frame = frame; self.warn = warn
        }
    }

    /// What an encode is given besides the pixels: the `encode` stage's parameters and its run.
    public struct EncodeRequest {
        public var quality: Int
        /// A zlib level, when given.
        public var compression: Int?
        /// What a format without alpha flattens onto.
        public var background: Color
        /// The colour profile, EXIF and XMP to write, after `profile=` and `metadata=`.
        public var profile: [UInt8]?
        public var exif: [UInt8]?
        public var xmp: [UInt8]?
        public var context: StageContext

        public init(quality: Int = 90, compression: Int? = nil, background: Color = .white, profile: [UInt8]? = nil,
                    exif: [UInt8]? = nil, xmp: [UInt8]? = nil, context: StageContext) {
            self.quality = quality; self.compression = compression; self.background = background
            self.profile = profile; self.exif = exif; self.xmp = xmp; self.context = context
        }
    }

    /// Reading the format: whole, and (when the codec can) row by row into a stream.
    public struct Decoder: Sendable {
        public var whole: @Sendable (DecodeRequest) throws -> Image
        /// Decodes into the stream and returns true, or returns false having touched nothing (this
        /// file cannot be streamed: the caller decodes it whole and passes it on). A codec without
        /// one is always decoded whole, then streamed.
        public var rows: (@Sendable (DecodeRequest, RowStream) throws -> Bool)?
        /// Whether the format holds animations whose frames `DecodeRequest.frame` chooses (else a
        /// frame past the first is refused before the decoder is asked).
        public var frames: Bool

        public init(whole: @escaping @Sendable (DecodeRequest) throws -> Image,
                    rows: (@Sendable (DecodeRequest, RowStream) throws -> Bool)? = nil, frames: Bool = false) {
            self.whole = whole; self.rows = rows; self.frames = frames
        }
    }

    /// Writing the format.
    public struct Encoder: Sendable {
        /// The `encode` parameters this format uses, of `quality`, `compression`, `background` (a
        /// format without alpha flattens onto it), `metadata`: the others are reported as ignored.
        public var parameters: Set<String>
        /// Whether the files carry a colour profile (else `profile=keep` converts to sRGB).
        public var carriesProfile: Bool
        /// The fewest bytes a `width`×`height` file takes, when known before encoding (an
        /// uncompressed format), so the run's output limit refuses it before the work.
        public var leastBytes: (@Sendable (_ width: Int, _ height: Int) -> Int)?
        public var whole: @Sendable (Image, EncodeRequest) throws -> [UInt8]
        /// Encodes rows as they arrive, when the format's writer can: given the stream's shape.
        public var rows: (@Sendable (RowStream, ImageShape, EncodeRequest) throws -> [UInt8])?

        public init(parameters: Set<String>, carriesProfile: Bool = true,
                    leastBytes: (@Sendable (Int, Int) -> Int)? = nil,
                    whole: @escaping @Sendable (Image, EncodeRequest) throws -> [UInt8],
                    rows: (@Sendable (RowStream, ImageShape, EncodeRequest) throws -> [UInt8])? = nil) {
            self.parameters = parameters; self.carriesProfile = carriesProfile
            self.leastBytes = leastBytes; self.whole = whole; self.rows = rows
        }
    }

    /// What `sumi formats` says of a format.
    public struct Support: Sendable {
        /// How the colour profile is read and written ("" when not at all).
        public var profile: String
        /// Which EXIF/XMP the format carries ("" when none).
        public var metadata: String
        public var notes: String

        public init(profile: String = "", metadata: String = "", notes: String = "") {
            self.profile = profile; self.metadata = metadata; self.notes = notes
        }
    }

    /// `jpeg`, `png`, a plugin's `qoi`: the name `format=`, reports and messages use.
    public var name: String
    /// The name in prose: "JPEG", "WebP".
    public var displayName: String
    /// Lower-case extensions without the dot; the first is the one written.
    public var extensions: [String]
    /// Other names `format=` accepts (`jpg` for JPEG).
    public var aliases: [String]
    /// `builtin`, or the plugin library's path.
    public var origin: String
    /// Bytes every file of the format starts with: how a later format's claim on them is noticed.
    public var magic: [UInt8]
    /// Whether encoded bytes (at least the file's first `ImageFormatRegistry.magicLimit`) are this format's.
    public var probe: @Sendable ([UInt8]) -> Bool
    public var decoder: Decoder?
    public var encoder: Encoder?
    public var support: Support
    /// A last resort (gdk-pixbuf's loaders): asked after every other format, whenever it was
    /// registered, and never the reason another format's claim is dropped.
    public var isFallback: Bool
    /// Whether the format's library can be loaded (a format behind a library opened on first use
    /// asks it: a missing one shows as "no" in `sumi formats`); nil: always.
    public var available: (@Sendable (_ encode: Bool) -> Bool)?

    public init(name: String, displayName: String? = nil, extensions: [String], aliases: [String] = [], origin: String,
                magic: [UInt8], probe: (@Sendable ([UInt8]) -> Bool)? = nil, decoder: Decoder?, encoder: Encoder?,
                support: Support = Support(), available: (@Sendable (Bool) -> Bool)? = nil, isFallback: Bool = false) {
        self.name = name
        self.displayName = displayName ?? name.uppercased()
        self.extensions = extensions
        self.aliases = aliases
        self.origin = origin
        self.magic = magic
        self.probe = probe ?? { bytes in bytes.count >= magic.count && bytes.prefix(magic.count).elementsEqual(magic) }
        self.decoder = decoder
        self.encoder = encoder
        self.support = support
        self.available = available
        self.isFallback = isFallback
    }

    /// Whether the codec reads (`encode: false`) or writes its format on this machine.
    public func can(encode: Bool) -> Bool {
        (encode ? encoder != nil : decoder != nil) && (available?(encode) ?? true)
    }

    /// Whether `name` (case-insensitive) names this format.
    public func isNamed(_ wanted: String) -> Bool {
        let wanted = wanted.lowercased()
        return name.lowercased() == wanted || aliases.contains(wanted)
    }
}

/// The image formats of a registry of stages, in registration order: the first registered wins.
/// The codecs family registers the built-in formats first, so a plugin format whose magic bytes an
/// earlier format recognises loses its decoder, and an extension an earlier format has is dropped
/// from it, each with a warning naming both.
///
/// There is no registry of the process: the engine's stage registry owns one, and a running stage
/// reaches it as `StageContext.formats`.
public final class ImageFormatRegistry: Sendable {
    private let state = Mutex<[ImageCodec]>([])

    public init() {}

    /// Registers formats after those already here, dropping what an earlier one claims (see the type).
    public func register(_ codecs: [ImageCodec], warn: (String) -> Void) {
        var messages: [String] = []
        state.withLock { registered in
            for var codec in codecs {
                func owner(_ earlier: ImageCodec) -> String {
                    earlier.origin == "builtin" ? "the built-in \(earlier.displayName) format" : "format \"\(earlier.name)\" from \(earlier.origin)"
                }
                if codec.decoder != nil {
                    // Padded so formats that want a least length (BMP) still see their prefix.
                    let sample = codec.magic + [UInt8](repeating: 0, count: Self.magicLimit)
                    if !codec.isFallback, let earlier = registered.first(where: { !$0.isFallback && $0.decoder != nil && $0.probe(sample) }) {
                        messages.append("plugin \(codec.origin): format \"\(codec.name)\" claims the magic bytes of \(owner(earlier)), which decodes them")
                        codec.decoder = nil
                    }
                }
                codec.extensions = codec.extensions.filter { ext in
                    guard let earlier = registered.first(where: { !$0.isFallback && $0.extensions.contains(ext) }) else { return true }
                    messages.append("plugin \(codec.origin): format \"\(codec.name)\" claims the extension .\(ext) of \(owner(earlier)), which is used")
                    return false
                }
                if registered.contains(where: { $0.isNamed(codec.name) }) {
                    messages.append("plugin \(codec.origin): a format named \"\(codec.name)\" is registered already; this one is left out")
                    continue
                }
                // Fallbacks stay last.
                registered.insert(codec, at: codec.isFallback ? registered.endIndex : registered.firstIndex(where: \.isFallback) ?? registered.endIndex)
            }
        }
        messages.forEach(warn)
    }

    /// Every format, in registration order (fallbacks last).
    public var codecs: [ImageCodec] { state.withLock { $0 } }

    /// The formats plugins added.
    public var pluginCodecs: [ImageCodec] { codecs.filter { $0.origin != "builtin" } }

    /// Whether no format is registered (a bare context in a test).
    public var isEmpty: Bool { state.withLock { $0.isEmpty } }

    /// The format that decodes `bytes` (its first `magicLimit` bytes at least), if any.
    public func decoder(for bytes: [UInt8]) -> ImageCodec? {
        state.withLock { $0.first { $0.decoder != nil && $0.probe(bytes) } }
    }

    /// The format named `name` (case-insensitive, or one of its aliases).
    public func codec(named name: String) -> ImageCodec? {
        state.withLock { $0.first { $0.isNamed(name) } }
    }

    /// The format that writes files with extension `ext` (case-insensitive), if any.
    public func encoder(forExtension ext: String) -> ImageCodec? {
        let wanted = ext.lowercased()
        return state.withLock { $0.first { $0.encoder != nil && $0.extensions.contains(wanted) } }
    }

    /// The format named `name` that writes: what `encode format=NAME` picks.
    public func encoder(named name: String) -> ImageCodec? {
        codec(named: name).flatMap { $0.encoder != nil ? $0 : nil }
    }

    /// Whether a format that decodes has the extension `ext` (case-insensitive).
    public func decodes(fileExtension ext: String) -> Bool {
        let wanted = ext.lowercased()
        return state.withLock { $0.contains { $0.decoder != nil && $0.extensions.contains(wanted) } }
    }

    /// The names of the formats that write, in registration order.
    public var writableNames: [String] { codecs.filter { $0.encoder != nil }.map(\.name) }

    /// The most magic bytes a plugin format may give: a file's first `magicLimit` bytes are enough
    /// to recognise it.
    public static let magicLimit = 64
}
