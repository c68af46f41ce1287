import SumiKit

/// Decodes the first directory of a TIFF or BigTIFF file through libtiff: strips or tiles, every
/// compression libtiff was built with, 1 to 16 and 32-bit integer and 16/32/64-bit float samples,
/// grey, palette, RGB, CMYK and CIELab/ICCLab, with or without alpha.
///
/// Samples become 8 bits as `sumi_tiff_decode` documents: integers rounded from their full range
/// (v × 255 / (2ⁿ − 1)), floats from 0.0–1.0 (or SMinSampleValue–SMaxSampleValue) clamped; Lab is
/// converted from Lab D50 to sRGB by lcms2. The Orientation tag is applied here (when `orient`),
/// and recorded as the image's stored orientation like a JPEG's. The size is checked against
/// `maxPixels` before the pixel buffer exists.
enum TIFFDecoder {
    static func decode(_ bytes: [UInt8], name: String, orient: Bool, maxPixels: Int) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            // No strip or row of tiles may ask for more than twice the largest image's RGBA (and at
            // least 256 MiB): a 16-bit RGBA strip of the whole image fits.
            let (limit, overflow) = maxPixels.multipliedReportingOverflow(by: 8)
            let file = try TIFFFile(data, name: name, maxAllocation: overflow ? Int.max : max(limit, 1 << 28))
            let info = try file.info()
            let stored = Int(info.orientation)
            let orientation = orient ? stored : 1
            let swaps = EXIFOrientation.swapsAxes(orientation)
            let width = Int(swaps ? info.height : info.width), height = Int(swaps ? info.width : info.height)
            try ImageHeader(width: width, height: height).check(name: name, format: .tiff, maxPixels: maxPixels)
            let metadata = ImageMetadata(sourceFormat: ImageFormat.tiff.rawValue, sourcePath: name, sourceOrientation: stored,
                                         orientationApplied: orient || stored == 1, knownOpaque: info.has_alpha == 0)
            return try Image(width: width, height: height, metadata: metadata) { out in
                try file.decode(into: out, orientation: orientation)
            }
        }
    }
}
