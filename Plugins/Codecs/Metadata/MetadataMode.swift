import SumiKit

/// `encode metadata=`: what happens to EXIF and XMP.
public enum MetadataMode: String, CaseIterable, Sendable, ParameterChoice {
    /// Written back (orientation reset once applied, dimensions updated, thumbnail dropped).
    case keep
    /// Neither EXIF nor XMP is written.
    case strip
    /// As `keep`, without the GPS directory and XMP `exif:GPS…` properties.
    case stripLocation = "strip-location"
}
