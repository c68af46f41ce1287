/// What Sumi can do with each image format: read, write, and which side data travels (the table
/// `sumi formats` prints). The formats behind libheif and gdk-pixbuf, which are opened only when
/// needed, are asked of the libraries themselves (opening them): a missing library or a libheif
/// built without an encoder shows as "no".
public struct FormatSupport: Sendable {
    public let format: ImageFormat
    public let reads: Bool
    public let writes: Bool
    /// How the colour profile is read and written ("" when not at all).
    public let profile: String
    /// Which EXIF/XMP the format carries ("" when none).
    public let metadata: String
    public let notes: String

    public static var all: [FormatSupport] {
        let pixbuf = (try? PixbufLibrary.functions(for: .tiff)) != nil
        let heifMissing = (try? HEIFLibrary.functions()) == nil ? "; \(HEIFLibrary.name) cannot be loaded" : ""
        let pixbufMissing = pixbuf ? "" : "; gdk-pixbuf cannot be loaded"
        return described.map { row in
            switch row.format {
            case .heif, .avif:
                return FormatSupport(format: row.format, reads: HEIFLibrary.has(row.format, encode: false),
                                     writes: HEIFLibrary.has(row.format, encode: true), profile: row.profile,
                                     metadata: row.metadata, notes: row.notes + heifMissing)
            case .gif, .tiff, .bmp:
                return FormatSupport(format: row.format, reads: pixbuf, writes: row.writes && (pixbuf || row.format == .bmp),
                                     profile: row.profile, metadata: row.metadata, notes: row.notes + pixbufMissing)
            default:
                return row
            }
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
                      metadata: "EXIF (IFD0 and EXIF/GPS IFDs), XMP (tag 700)", notes: "self-contained maker notes carried (Nikon, Apple, Fujifilm, Olympus), others left out"),
        FormatSupport(format: .heif, reads: true, writes: true, profile: "ICC or nclx (read), ICC (write)",
                      metadata: "EXIF, XMP", notes: "HEIC via libheif (libde265 decode, x265 encode); irot/imir applied; quality"),
        FormatSupport(format: .avif, reads: true, writes: true, profile: "ICC or nclx (read), ICC (write)",
                      metadata: "EXIF, XMP", notes: "via libheif (dav1d decode, libaom encode); quality"),
        FormatSupport(format: .gif, reads: true, writes: false, profile: "", metadata: "", notes: "first frame"),
        FormatSupport(format: .bmp, reads: true, writes: true, profile: "",
                      metadata: "", notes: "24-bit output; a kept profile is converted to sRGB"),
    ]
}
