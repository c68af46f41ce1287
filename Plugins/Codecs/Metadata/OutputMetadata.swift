import SumiKit

/// What an encoder writes beside the pixels: the profile, EXIF and XMP of the image, after the
/// `profile` and `metadata` choices and the rules for a new image — every orientation record (EXIF
/// in any directory, XMP `tiff:Orientation`) 1 once the pixels are upright, pixel dimensions of the
/// output, no EXIF thumbnail (it would show the old picture).
struct OutputMetadata {
    var icc: [UInt8]?
    var exif: [UInt8]?
    var xmp: [UInt8]?

    init(icc: [UInt8]? = nil, exif: [UInt8]? = nil, xmp: [UInt8]? = nil) {
        self.icc = icc
        self.exif = exif
        self.xmp = xmp
    }

    /// For an image with `metadata`, `width`×`height`, whose pixels are already in the space
    /// `profile` asks for.
    init(for metadata: ImageMetadata, width: Int, height: Int, profile: ProfileMode, mode: MetadataMode) {
        switch profile {
        case .keep: icc = metadata.iccProfile
        case .srgb: icc = ColorProfile.sRGBData
        case .strip: icc = nil
        }
        guard mode != .strip else { return }
        // Pixels that are upright (the orientation applied, or none to apply) make every
        // orientation record 1, so that no reader turns them again.
        let upright = metadata.orientationApplied
        if let exif = metadata.exif, let block = EXIFBlock(exif) {
            self.exif = block.rewritten(upright: upright, width: width, height: height,
                                        stripLocation: mode == .stripLocation)
        }
        if var xmp = metadata.xmp {
            if mode == .stripLocation { xmp = XMPPacket.removingLocation(xmp) }
            if upright { xmp = XMPPacket.uprightOrientation(xmp) }
            self.xmp = xmp
        }
    }

    var isEmpty: Bool { icc == nil && exif == nil && xmp == nil }

    /// `encoded` (in `format`) with this metadata embedded.
    func embedded(in encoded: [UInt8], format: ImageFormat, width: Int, height: Int,
                  warn: (String) -> Void) throws -> [UInt8] {
        guard !isEmpty else { return encoded }
        switch format {
        case .jpeg: return JPEGSegments.inserting(into: encoded, icc: icc, exif: exif, xmp: xmp, warn: warn)
        case .png: return try PNGChunks.inserting(into: encoded, icc: icc, exif: exif, xmp: xmp)
        case .webp: return WebPChunks.inserting(into: encoded, width: width, height: height, icc: icc, exif: exif, xmp: xmp)
        case .tiff: return TIFFMetadata.adding(exif: exif, xmp: xmp, to: encoded)
        case .heif, .avif, .gif, .bmp, .ico, .tga, .qoi, .jp2: return encoded
        }
    }
}
