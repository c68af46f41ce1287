/// What Sumi can do with each image format: read, write, and which side data travels (the table
/// `sumi formats` prints).
public struct FormatSupport: Sendable {
    public let format: ImageFormat
    public let reads: Bool
    public let writes: Bool
    /// How the colour profile is read and written ("" when not at all).
    public let profile: String
    /// Which EXIF/XMP the format carries ("" when none).
    public let metadata: String
    public let notes: String

    public static let all: [FormatSupport] = [
        FormatSupport(format: .jpeg, reads: true, writes: true, profile: "ICC (APP2 chunks)",
                      metadata: "EXIF (APP1), XMP (APP1)", notes: "EXIF orientation applied on decode; quality"),
        FormatSupport(format: .png, reads: true, writes: true, profile: "ICC (iCCP); reads sRGB and cICP",
                      metadata: "EXIF (eXIf), XMP (iTXt)", notes: "compression 0-9"),
        FormatSupport(format: .webp, reads: true, writes: true, profile: "ICC (ICCP)",
                      metadata: "EXIF, XMP chunks", notes: "still images; lossy output with alpha; quality"),
        FormatSupport(format: .tiff, reads: true, writes: true, profile: "ICC (tag 34675)",
                      metadata: "EXIF (IFD0 and EXIF/GPS IFDs), XMP (tag 700)", notes: "maker notes are not carried"),
        FormatSupport(format: .heif, reads: true, writes: true, profile: "ICC or nclx (read), ICC (write)",
                      metadata: "EXIF, XMP", notes: "HEIC via libheif (libde265 decode, x265 encode); irot/imir applied; quality"),
        FormatSupport(format: .avif, reads: true, writes: true, profile: "ICC or nclx (read), ICC (write)",
                      metadata: "EXIF, XMP", notes: "via libheif (dav1d decode, libaom encode); quality"),
        FormatSupport(format: .gif, reads: true, writes: false, profile: "", metadata: "", notes: "first frame"),
        FormatSupport(format: .bmp, reads: true, writes: true, profile: "",
                      metadata: "", notes: "24-bit output; a kept profile is converted to sRGB"),
    ]
}
