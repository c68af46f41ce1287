import CSumiCodecs

/// The formats gdk-pixbuf's installed loaders add to Sumi's own (ICO, TGA, XPM, PNM, JPEG XL or
/// whatever a system has), asked of gdk-pixbuf at run time (opening it).
///
/// Left out: the formats Sumi reads with its own readers or libraries (PNG, JPEG, GIF, BMP, TIFF,
/// WebP, HEIF, AVIF, ICO, TGA, QOI, JPEG 2000), and SVG: a vector drawing rendered at a size of its own choosing, which may load
/// other files it names — not something an image decoder should do behind `--safe`'s path checks.
public enum PixbufFormats {
    /// One format: gdk-pixbuf's name for it (its loader's type), description and file extensions.
    public struct Format: Sendable {
        public let name: String
        public let description: String
        public let extensions: [String]
    }

    /// How many first bytes recognition looks at (gdk-pixbuf's loader looks at as many).
    public static let sniffLength = 1024

    static let excluded: Set<String> = ["png", "jpeg", "gif", "bmp", "tiff", "webp", "heif", "avif", "ico", "tga", "qoi", "jpeg2000", "svg"]

    /// The formats of the installed, enabled loaders; empty when gdk-pixbuf cannot be opened.
    public static var available: [Format] {
        var formats = [sumi_pixbuf_format](repeating: sumi_pixbuf_format(), count: 64)
        let count = Int(sumi_pixbuf_list_formats(&formats, Int32(formats.count)))
        return formats.prefix(max(0, min(count, formats.count))).compactMap { format in
            var format = format
            let name = withUnsafeBytes(of: &format.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !excluded.contains(name) else { return nil }
            let description = withUnsafeBytes(of: &format.description) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let extensions = withUnsafeBytes(of: &format.extensions) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return Format(name: name, description: description, extensions: extensions.split(separator: " ").map(String.init))
        }
    }

    /// The gdk-pixbuf format the first bytes of a file are, as gdk-pixbuf recognises them (its
    /// loaders' signatures), or nil for none of the formats above.
    public static func detect(_ bytes: [UInt8]) -> String? {
        var name = [CChar](repeating: 0, count: 32)
        let found = bytes.withUnsafeBufferPointer { data -> Bool in
            guard let base = data.baseAddress else { return false }
            return sumi_pixbuf_sniff(base, data.count, &name, name.count) == 0
        }
        guard found else { return nil }
        let format = DecoderMessage.text(ofBuffer: name)
        return excluded.contains(format) ? nil : format
    }
}
