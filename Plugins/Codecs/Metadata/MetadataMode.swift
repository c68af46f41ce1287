import SumiKit

/// `encode metadata=`: what happens to EXIF and XMP.
public enum MetadataMode: String, CaseIterable, Sendable, ParameterChoice {
    /// Written back (orientation reset once applied, dimensions updated, thumbnail dropped).
    case keep
    /// Neither EXIF nor XMP is written.
    case strip
    /// As `keep`, without any GPSInfo pointer (wherever it is; the GPS directories zeroed) and
    /// without XMP `exif:GPS…` properties.
    case stripLocation = "strip-location"
}
