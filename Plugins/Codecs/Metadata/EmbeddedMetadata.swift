import SumiKit

/// The colour and camera metadata found in a file's container (before it is checked): ICC profile,
/// EXIF block, XMP packet, or H.273 colour code points, plus what was wrong with any of them.
struct EmbeddedMetadata {
    var icc: [UInt8]?
    var exif: [UInt8]?
    var xmp: [UInt8]?
    /// H.273 colour primaries and transfer characteristics (PNG `cICP`, HEIF `nclx`).
    var cicp: (primaries: Int, transfer: Int)?
    var warnings: [String] = []

    /// Checks what was found and stores what can be trusted into `metadata`; every problem (a
    /// truncated or corrupt profile, a profile that is not RGB, EXIF that is not a TIFF structure)
    /// becomes a warning, and the image is then treated as sRGB / without that block.
    func apply(to metadata: inout ImageMetadata, warn: (String) -> Void) {
        for warning in warnings { warn(warning) }
        if let icc {
            let (profile, problem) = ColorProfile.validated(icc)
            if let problem { warn("\(problem); treated as sRGB") }
            metadata.iccProfile = profile
        } else if let cicp {
            if let profile = ColorProfile.fromCICP(primaries: cicp.primaries, transfer: cicp.transfer) {
                metadata.iccProfile = profile.iccData()
            } else if !(cicp.primaries == 1 || cicp.primaries == 2) || ![1, 2, 6, 13, 14, 15].contains(cicp.transfer) {
                warn("colour space H.273 \(cicp.primaries)/\(cicp.transfer) has no ICC equivalent; treated as sRGB")
            }
        }
        if let exif {
            if EXIFBlock(exif) != nil {
                metadata.exif = exif
            } else {
                warn("EXIF block (\(exif.count) bytes) is not a readable TIFF structure; dropped")
            }
        }
        metadata.xmp = xmp
    }
}
