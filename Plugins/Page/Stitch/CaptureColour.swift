import SumiCodecs
import SumiKit

/// Brings stitched captures into one colour space: those whose profile differs from the first
/// capture's are converted to it (lcms2, relative colorimetric) before overlaps are compared, so
/// captures from two displays join without a visible seam.
enum CaptureColour {
    /// The captures, all in the first capture's space (nil: sRGB).
    static func unified(_ captures: [Image]) throws -> [Image] {
        guard let first = captures.first else { return captures }
        let target = first.metadata.iccProfile
        return try captures.map { capture in
            guard !ColorProfile.sameSpace(capture.metadata.iccProfile, target) else { return capture }
            var converted = capture
            try ColorConversion.convert(&converted, to: target)
            return converted
        }
    }
}
