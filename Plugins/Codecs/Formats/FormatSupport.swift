import SumiKit

/// What Sumi can do with each built-in image format: read, write, and which side data travels (the
/// table `sumi formats` prints, from the registry's `ImageCodec`s). The formats behind libheif,
/// libtiff and gdk-pixbuf, which are opened only when needed, are asked of the libraries themselves
/// (opening them): a missing library or a libheif built without an encoder shows as "no", and the
/// formats gdk-pixbuf's installed loaders add (`PixbufFormats`) follow Sumi's own.
public struct FormatSupport: Sendable {
    /// The format's name: an `ImageFormat`'s raw value, or a gdk-pixbuf loader's ("ico", "tga").
    public let name: String
    public let reads: Bool
    public let writes: Bool
    /// How the colour profile is read and written ("" when not at all).
    public let profile: String
    /// Which EXIF/XMP the format carries ("" when none).
    public let metadata: String
    public let notes: String

    init(name: String, reads: Bool, writes: Bool, profile: String, metadata: String, notes: String) {
        (self.name, self.reads, self.writes) = (name, reads, writes)
        (self.profile, self.metadata, self.notes) = (profile, metadata, notes)
    }

    /// The rows of the built-in formats of `registry` (the built-ins' own when it has none), in
    /// registration order, each asked of its library when it is one opened on first use; then a row
    /// for each format gdk-pixbuf's installed loaders add.
    public static func all(_ registry: ImageFormatRegistry? = nil) -> [FormatSupport] {
        let codecs = BuiltinCodecs.resolve(registry).codecs.filter { $0.origin == BuiltinCodecs.origin }
        let own = codecs.filter { !$0.isFallback }.map { codec in
            let reads = codec.can(encode: false), writes = codec.can(encode: true)
            var notes = codec.support.notes
            if codec.decoder != nil && !reads { notes += "; input needs a library that cannot be loaded" }
            if codec.encoder != nil && !writes { notes += "; output needs a library that cannot be loaded" }
            return FormatSupport(name: codec.name, reads: reads, writes: writes, profile: codec.support.profile,
                                 metadata: codec.support.metadata, notes: notes)
        }
        guard codecs.contains(where: \.isFallback) else { return own }
        return own + PixbufFormats.available.map { format in
            FormatSupport(name: format.name, reads: true, writes: false, profile: "", metadata: "",
                          notes: "\(format.description) via gdk-pixbuf (\(format.extensions.map { "." + $0 }.joined(separator: " ")))")
        }
    }
}
