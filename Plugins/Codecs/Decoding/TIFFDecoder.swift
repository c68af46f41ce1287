import CSumiCodecs
import SumiKit

/// Decodes the first directory of a TIFF or BigTIFF file through libtiff: strips or tiles, every
/// compression libtiff was built with, 1 to 16 and 32-bit integer and 16/32/64-bit float samples,
/// grey, palette, RGB, CMYK and CIELab/ICCLab, with or without alpha.
///
/// Samples become 8 bits as `sumi_tiff_decode` documents: integers rounded from their full range
/// (v × 255 / (2ⁿ − 1)), floats from 0.0–1.0 (or SMinSampleValue–SMaxSampleValue) clamped; Lab is
/// converted from Lab D50 to sRGB by lcms2. The Orientation tag is applied here (when `orient`),
/// and recorded as the image's stored orientation like a JPEG's. The size is checked against
/// the limits before any row exists.
///
/// An upright image streams (`decode(_:name:orient:limits:into:warn:)`): strips are read as the
/// rows reach them, a single-strip file a few rows at a time, so only the file and the ring take
/// memory. A turned one, and the layouts libtiff's RGBA interface reads, are decoded whole.
enum TIFFDecoder {
    static func decode(_ bytes: [UInt8], name: String, orient: Bool, limits: PixelLimits) throws -> Image {
        try bytes.withUnsafeBufferPointer { data in
            let (file, info) = try open(data, name: name, limits: limits)
            let stored = Int(info.orientation)
            let orientation = orient ? stored : 1
            let swaps = EXIFOrientation.swapsAxes(orientation)
            let width = Int(swaps ? info.height : info.width), height = Int(swaps ? info.width : info.height)
            try ImageHeader(width: width, height: height).check(name: name, format: .tiff, limits: limits)
            return try Image(width: width, height: height, metadata: metadata(info, name: name, orient: orient)) { out in
                try file.decode(into: out, orientation: orientation)
            }
        }
    }

    /// Decodes an upright TIFF into `stream` row by row, with the pixels and side data of the whole
    /// decode. Returns false (having touched nothing) when the image is to be turned or its layout
    /// is decoded only whole: the caller decodes it whole.
    static func decode(_ bytes: [UInt8], name: String, orient: Bool, limits: PixelLimits, into stream: RowStream,
                       warn: (String) -> Void) throws -> Bool {
        try bytes.withUnsafeBufferPointer { data in
            let (file, info) = try open(data, name: name, limits: limits)
            guard !orient || info.orientation == 1, info.whole_only == 0 else { return false }
            try ImageHeader(width: Int(info.width), height: Int(info.height)).check(name: name, format: .tiff, limits: limits)
            var metadata = metadata(info, name: name, orient: orient)
            MetadataReader.read(bytes, format: .tiff).apply(to: &metadata, warn: { warn("\(name): \($0)") })
            try stream.begin(ImageShape(width: Int(info.width), height: Int(info.height), metadata: metadata))
            try file.decode(into: stream)
            return true
        }
    }

    /// The file and its first directory's layout. No strip or row of tiles may ask for more than
    /// twice the largest image's RGBA (and at least 256 MiB): a 16-bit RGBA strip of the whole
    /// image fits.
    private static func open(_ data: UnsafeBufferPointer<UInt8>, name: String, limits: PixelLimits) throws -> (TIFFFile, sumi_tiff_info) {
        let (limit, overflow) = limits.maxPixels.multipliedReportingOverflow(by: 8)
        let file = try TIFFFile(data, name: name, maxAllocation: overflow ? Int.max : max(limit, 1 << 28))
        return (file, try file.info())
    }

    private static func metadata(_ info: sumi_tiff_info, name: String, orient: Bool) -> ImageMetadata {
        let stored = Int(info.orientation)
        return ImageMetadata(sourceFormat: ImageFormat.tiff.rawValue, sourcePath: name, sourceOrientation: stored,
                             orientationApplied: orient || stored == 1, knownOpaque: info.has_alpha == 0)
    }
}
