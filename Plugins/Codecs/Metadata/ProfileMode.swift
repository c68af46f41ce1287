import SumiKit

/// `encode profile=`: what happens to the image's colour profile.
public enum ProfileMode: String, CaseIterable, Sendable, ParameterChoice {
    /// Pixels stay in the source's space; the same profile is written.
    case keep
    /// Pixels are converted to sRGB (lcms2, relative colorimetric) and tagged sRGB.
    case srgb
    /// No profile is written; pixels are untouched (viewers then read them as sRGB).
    case strip
}
