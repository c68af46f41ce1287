import SumiKit

/// Decodes encoded image bytes — PNG, JPEG, GIF (first frame), BMP, TIFF, WebP, HEIF (HEIC) or
/// AVIF, recognised by their magic bytes, then a plugin's formats, then those gdk-pixbuf's
/// installed loaders add (`PixbufFormats`) — into a premultiplied RGBA `Image`, with the embedded
/// colour profile, EXIF and XMP in its metadata (problems with those are passed to `warn`).
///
/// The size in the header is checked against the run's limits (`maxPixels`, and `maxWidth` for one
/// row) before any pixel memory is allocated.
/// The EXIF orientation (or XMP's, see `EXIFOrientation`) is applied when `orient` is set — a
/// JPEG's and a TIFF's (its Orientation tag) while decoding — and `sizeHint` (given the full upright
/// size, returning the size the consumer needs) lets a JPEG decode at a reduced DCT scale. Truncated
/// or corrupt data is an error naming `name`.
public enum ImageDecoder {
    public static let defaultMaxPixels = 178_956_970

    /// Reads an image file (or standard input for `-`), refusing data that is no supported image
    /// (nor one of `formats`) after its first bytes rather than after reading all of it.
    public static func read(_ path: String, name: String, formats: ImageFormatRegistry? = nil) throws(StageError) -> [UInt8] {
        try FileIO.read(path) { (first: [UInt8]) throws(StageError) in
            if ImageFormat(detecting: first) == nil && formats?.decoder(for: first) == nil
                && PixbufFormats.detect(first) == nil { throw notAnImage(name) }
        }
    }

    static func notAnImage(_ name: String) -> StageError {
        StageError("\(name): not a supported image (expected PNG, JPEG, GIF, BMP, TIFF, WebP, HEIF or AVIF data, "
                   + "or a format gdk-pixbuf's loaders read: see `sumi formats`)", cause: .unsupported)
    }

    /// `maxPixels` and `maxWidth` are the run's limits (`PixelLimits`): an image with more pixels,
    /// or rows wider, is refused at its header. `strict`: a file its decoder reads only with damage
    /// (a truncated or corrupt JPEG) is refused rather than decoded with a warning.
    public static func decode(_ bytes: [UInt8], name: String, orient: Bool = true,
                              maxPixels: Int = defaultMaxPixels, maxWidth: Int = PixelLimits.standard.maxWidth,
                              sizeHint: ((Size) -> Size?)? = nil, verified: Bool = false, strict: Bool = false,
                              formats: ImageFormatRegistry? = nil, warn: (String) -> Void = { _ in }) throws -> Image {
        guard !bytes.isEmpty else { throw StageError("\(name): empty file", cause: .unsupported) }
        let limits = PixelLimits(maxPixels: maxPixels, maxWidth: maxWidth)
        guard let format = ImageFormat(detecting: bytes) else {
            // A plugin's format (built-in formats win: they were checked first), else one of
            // gdk-pixbuf's loaders.
            if let plugin = formats?.decoder(for: bytes), let decode = plugin.decode {
                return try decode(bytes, { warn("\(name): \($0)") }, sizeHint)
            }
            guard let pixbuf = PixbufFormats.detect(Array(bytes.prefix(PixbufFormats.sniffLength))) else { throw notAnImage(name) }
            return try PixbufDecoder.decode(bytes, format: pixbuf, name: name, limits: limits)
        }
        if format == .heif || format == .avif {
            return try HEIFDecoder.decode(bytes, format: format, name: name, limits: limits, warn: warn)
        }
        var image = try decodePixels(bytes, format: format, name: name, orient: orient, limits: limits, sizeHint: sizeHint,
                                     verified: verified, strict: strict, warn: warn)
        let embedded = MetadataReader.read(bytes, format: format)
        embedded.apply(to: &image.metadata, warn: { warn("\(name): \($0)") })
        // The orientation of every format but JPEG and TIFF (their readers turn while decoding),
        // from its EXIF or XMP.
        guard format != .jpeg && format != .tiff else { return image }
        return EXIFOrientation.applying(EXIFOrientation.orientation(of: embedded), to: image, orient: orient)
    }

    /// Decodes into `stream` row by row, as the whole decode would but holding only the file and
    /// the ring, when the image allows it: an upright JPEG (DCT-scaled by `sizeHint` as the whole
    /// decode), PNG and WebP whose EXIF/XMP orientation is 1 (a PNG not interlaced), an upright TIFF
    /// of a layout Sumi reads itself, any GIF and BMP (they store no orientation). Returns false,
    /// having touched nothing, for any other image: the caller decodes it whole.
    public static func decode(_ bytes: [UInt8], name: String, orient: Bool = true, limits: PixelLimits,
                              sizeHint: ((Size) -> Size?)? = nil, into stream: RowStream, strict: Bool = false,
                              warn: (String) -> Void = { _ in }) throws -> Bool {
        switch ImageFormat(detecting: bytes) {
        case .jpeg?:
            return try JPEGDecoder.decode(bytes, name: name, orient: orient, limits: limits, sizeHint: sizeHint, into: stream,
                                          strict: strict, warn: warn)
        case .png? where EXIFOrientation.stored(in: bytes, format: .png) == 1:
            return try PNGDecoder.decode(bytes, name: name, limits: limits, into: stream, warn: warn)
        case .webp? where EXIFOrientation.stored(in: bytes, format: .webp) == 1:
            try WebPDecoder.decode(bytes, name: name, limits: limits, into: stream, warn: warn)
        case .tiff?:
            return try TIFFDecoder.decode(bytes, name: name, orient: orient, limits: limits, into: stream, warn: warn)
        case .gif?:
            try GIFDecoder.decode(bytes, name: name, limits: limits, into: stream)
        case .bmp?:
            try BMPDecoder.decode(bytes, name: name, limits: limits, into: stream)
        default:
            return false
        }
        return true
    }

    /// `verified`: the same bytes were decoded before without error (a list's image taken again), so
    /// checksums need not be computed again.
    static func decodePixels(_ bytes: [UInt8], format: ImageFormat, name: String, orient: Bool, limits: PixelLimits,
                             sizeHint: ((Size) -> Size?)?, verified: Bool = false, strict: Bool = false,
                             warn: (String) -> Void = { _ in }) throws -> Image {
        switch format {
        case .jpeg:
            return try JPEGDecoder.decode(bytes, name: name, orient: orient, limits: limits, sizeHint: sizeHint, strict: strict,
                                          warn: warn)
        case .png:
            return try PNGDecoder.decode(bytes, name: name, limits: limits, verified: verified, warn: warn)
        case .webp:
            return try WebPDecoder.decode(bytes, name: name, limits: limits)
        case .tiff:
            return try TIFFDecoder.decode(bytes, name: name, orient: orient, limits: limits)
        case .gif:
            return try GIFDecoder.decode(bytes, name: name, limits: limits)
        case .bmp:
            return try BMPDecoder.decode(bytes, name: name, limits: limits)
        case .heif, .avif:
            return try HEIFDecoder.decode(bytes, format: format, name: name, limits: limits, warn: { _ in })
        }
    }
}
