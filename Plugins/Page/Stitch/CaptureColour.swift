import SumiCodecs
import SumiKit

/// Brings stitched captures into one colour space: those whose profile differs from the first
/// capture's are converted to it (lcms2, relative colorimetric) before overlaps are compared, so
/// captures from two displays join without a visible seam.
enum CaptureColour {
    /// One capture in the space of `target` (the first capture's profile; nil: sRGB).
    static func unified(_ capture: Image, to target: [UInt8]?) throws -> Image {
        guard !ColorProfile.sameSpace(capture.metadata.iccProfile, target) else { return capture }
        var converted = capture
        try ColorConversion.convert(&converted, to: target)
        return converted
    }
}
