/// Edits of an XMP packet that follow the EXIF rules: location removed with `strip-location`, the
/// orientation reset once applied.
enum XMPPacket {
    /// `xmp` without `exif:GPS…` properties (attributes and elements).
    static func removingLocation(_ xmp: [UInt8]) -> [UInt8] {
        var text = String(decoding: xmp, as: UTF8.self)
        text = text.replacing(#/\s+exif:GPS[A-Za-z]*\s*=\s*("[^"]*"|'[^']*')/#, with: "")
        text = text.replacing(#/<exif:GPS([A-Za-z]*)[^>]*/>/#, with: "")
        text = text.replacing(#/<exif:GPS([A-Za-z]*)[^>]*>[\s\S]*?</exif:GPS\1>/#, with: "")
        return Array(text.utf8)
    }

    /// `xmp` with any `tiff:Orientation` set to 1.
    static func uprightOrientation(_ xmp: [UInt8]) -> [UInt8] {
        var text = String(decoding: xmp, as: UTF8.self)
        text = text.replacing(#/tiff:Orientation\s*=\s*"[0-9]"/#, with: "tiff:Orientation=\"1\"")
        text = text.replacing(#/<tiff:Orientation>[0-9]</tiff:Orientation>/#, with: "<tiff:Orientation>1</tiff:Orientation>")
        return Array(text.utf8)
    }
}
