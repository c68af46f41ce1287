/// `encode profile=`: what happens to the image's colour profile.
public enum ProfileMode: String, CaseIterable, Sendable {
    /// Pixels stay in the source's space; the same profile is written.
    case keep
    /// Pixels are converted to sRGB (lcms2, relative colorimetric) and tagged sRGB.
    case srgb
    /// No profile is written; pixels are untouched (viewers then read them as sRGB).
    case strip
}

/// `encode metadata=`: what happens to EXIF and XMP.
public enum MetadataMode: String, CaseIterable, Sendable {
    /// Written back (orientation reset once applied, dimensions updated, thumbnail dropped).
    case keep
    /// Neither EXIF nor XMP is written.
    case strip
    /// As `keep`, without the GPS directory and XMP `exif:GPS…` properties.
    case stripLocation = "strip-location"
}
