import CSumiCodecs

/// What Sumi can do with each image format: read, write, and which side data travels (the table
/// `sumi formats` prints). The formats behind libheif, libtiff and gdk-pixbuf, which are opened only
/// when needed, are asked of the libraries themselves (opening them): a missing library or a libheif
/// built without an encoder shows as "no", and the formats gdk-pixbuf's installed loaders add
/// (`PixbufFormats`) follow Sumi's own.
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

    init(format: ImageFormat, reads: Bool, writes: Bool, profile: String, metadata: String, notes: String) {
        self.init(name: format.rawValue, reads: reads, writes: writes, profile: profile, metadata: metadata, notes: notes)
    }

    init(name: String, reads: Bool, writes: Bool, profile: String, metadata: String, notes: String) {
        (self.name, self.reads, self.writes) = (name, reads, writes)
        (self.profile, self.metadata, self.notes) = (profile, metadata, notes)
    }

    public static var all: [FormatSupport] {
        let pixbuf = (try? PixbufLibrary.functions(for: .tiff)) != nil
        var tiffMissing: UnsafePointer<CChar>?
        let tiff = sumi_tiff_library(&tiffMissing) == 0
        let heifMissing = (try? HEIFLibrary.functions()) == nil ? "; \(HEIFLibrary.name) cannot be loaded" : ""
        let own = described.map { row in
            switch ImageFormat(rawValue: row.name) {
            case .heif?, .avif?:
                let format = ImageFormat(rawValue: row.name) ?? .heif
                return FormatSupport(name: row.name, reads: HEIFLibrary.has(format, encode: false),
                                     writes: HEIFLibrary.has(format, encode: true), profile: row.profile,
                                     metadata: row.metadata, notes: row.notes + heifMissing)
            case .tiff?:
                return FormatSupport(name: row.name, reads: tiff, writes: pixbuf, profile: row.profile, metadata: row.metadata,
                                     notes: row.notes + (tiff ? "" : "; input needs libtiff, which cannot be loaded")
                                         + (pixbuf ? "" : "; output needs gdk-pixbuf, which cannot be loaded"))
            default:
                return row
            }
        }
        return own + PixbufFormats.available.map { format in
            FormatSupport(name: format.name, reads: true, writes: false, profile: "", metadata: "",
                          notes: "\(format.description) via gdk-pixbuf (\(format.extensions.map { "." + $0 }.joined(separator: " ")))")
        }
    }

    /// What each format carries when its library is present.
    static let described: [FormatSupport] = [
        FormatSupport(format: .jpeg, reads: true, writes: true, profile: "ICC (APP2 chunks)",
                      metadata: "EXIF (APP1), XMP (APP1, Extended XMP)", notes: "EXIF orientation applied on decode; quality"),
        FormatSupport(format: .png, reads: true, writes: true, profile: "ICC (iCCP); reads sRGB and cICP",
                      metadata: "EXIF (eXIf; raw profile text), XMP (iTXt)", notes: "EXIF orientation applied on decode; compression 0-9"),
        FormatSupport(format: .webp, reads: true, writes: true, profile: "ICC (ICCP)",
                      metadata: "EXIF, XMP chunks", notes: "still images; EXIF orientation applied on decode; lossy output with alpha; quality"),
        FormatSupport(format: .tiff, reads: true, writes: true, profile: "ICC (tag 34675)",
                      metadata: "EXIF (IFD0 and EXIF/GPS IFDs), XMP (tag 700)",
                      notes: "read with libtiff: first directory, BigTIFF, 1-32-bit and float samples to 8 bits, "
                          + "CMYK, CIELab to sRGB, Orientation applied; self-contained maker notes carried "
                          + "(Nikon, Apple, Fujifilm, Olympus), others left out"),
        FormatSupport(format: .heif, reads: true, writes: true, profile: "ICC or nclx (read), ICC (write)",
                      metadata: "EXIF, XMP", notes: "HEIC via libheif (libde265 decode, x265 encode); irot/imir applied; quality"),
        FormatSupport(format: .avif, reads: true, writes: true, profile: "ICC or nclx (read), ICC (write)",
                      metadata: "EXIF, XMP", notes: "via libheif (dav1d decode, libaom encode); quality"),
        FormatSupport(format: .gif, reads: true, writes: false, profile: "", metadata: "", notes: "first frame (giflib)"),
        FormatSupport(format: .bmp, reads: true, writes: true, profile: "",
                      metadata: "", notes: "1-32-bit, bitfields, RLE4/RLE8, OS/2; 24-bit output; a kept profile is converted to sRGB"),
    ]
}
