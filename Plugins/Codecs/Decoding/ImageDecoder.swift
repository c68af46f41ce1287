import SumiKit

/// Decodes encoded image bytes — with the registered format (`ImageFormatRegistry`) that recognises
/// them: PNG, JPEG, GIF, BMP, TIFF, WebP, HEIF (HEIC), AVIF, ICO, TGA, QOI or JPEG 2000, a plugin's formats,
/// then those gdk-pixbuf's installed loaders add (`PixbufFormats`) — into a premultiplied RGBA `Image`, with the embedded
/// colour profile, EXIF and XMP in its metadata (problems with those are passed to `warn`). An
/// animated GIF or WebP gives its first frame, or frame `frame` composited on its canvas.
///
/// The size in the header is checked against the run's limits (`maxPixels`, and `maxWidth` for one
/// row) before any pixel memory is allocated.
/// The EXIF orientation (or XMP's, see `EXIFOrientation`) is applied when `orient` is set — a
/// JPEG's and a TIFF's (its Orientation tag) while decoding — and `sizeHint` (given the full upright
/// size, returning the size the consumer needs) lets a JPEG decode at a reduced DCT scale. Truncated
/// or corrupt data is an error naming `name`.
public enum ImageDecoder {
    public static let defaultMaxPixels = 178_956_970

    /// Reads an image file (or standard input for `-`), refusing data that no registered format
    /// recognises after its first bytes rather than after reading all of it.
    public static func read(_ path: String, name: String, formats: ImageFormatRegistry? = nil) throws(StageError) -> [UInt8] {
        let registry = BuiltinCodecs.resolve(formats)
        return try FileIO.read(path) { (first: [UInt8]) throws(StageError) in
            if registry.decoder(for: first) == nil { throw notAnImage(name) }
        }
    }

    static func notAnImage(_ name: String) -> StageError {
        StageError("\(name): not a supported image (expected PNG, JPEG, GIF, BMP, TIFF, WebP, HEIF, AVIF, ICO, TGA, QOI or JPEG 2000 data, "
                   + "or a format gdk-pixbuf's loaders read: see `sumi formats`)", cause: .unsupported)
    }

    /// Decodes with the format of `formats` (the built-ins when it has none of them) that recognises
    /// the bytes. `maxPixels` and `maxWidth` are the run's limits (`PixelLimits`): an image with more
    /// pixels, or rows wider, is refused at its header. `strict`: a file its decoder reads only with
    /// damage (a truncated or corrupt JPEG) is refused rather than decoded with a warning.
    public static func decode(_ bytes: [UInt8], name: String, orient: Bool = true,
                              maxPixels: Int = defaultMaxPixels, maxWidth: Int = PixelLimits.standard.maxWidth,
                              sizeHint: ((Size) -> Size?)? = nil, verified: Bool = false, strict: Bool = false, frame: Int = 1,
                              formats: ImageFormatRegistry? = nil, warn: (String) -> Void = { _ in }) throws -> Image {
        guard !bytes.isEmpty else { throw StageError("\(name): empty file", cause: .unsupported) }
        let decoder = try codec(for: bytes, name: name, frame: frame, formats: formats)
        return try withoutActuallyEscaping(warn) { warn in
            try decoder.whole(ImageCodec.DecodeRequest(
                bytes: bytes, name: name, orient: orient, limits: PixelLimits(maxPixels: maxPixels, maxWidth: maxWidth),
                sizeHint: sizeHint, verified: verified, strict: strict, frame: frame, warn: warn))
        }
    }

    /// Decodes into `stream` row by row, as the whole decode would but holding only the file and
    /// the ring, when the format's codec can stream this file (`ImageCodec.Decoder.rows`: an upright
    /// JPEG, DCT-scaled as the whole decode; PNG and WebP whose EXIF/XMP orientation is 1, a PNG not
    /// interlaced; an upright TIFF of a layout Sumi reads itself; any GIF and BMP). Returns false,
    /// having touched nothing, for any other image: the caller decodes it whole.
    public static func decode(_ bytes: [UInt8], name: String, orient: Bool = true, limits: PixelLimits,
                              sizeHint: ((Size) -> Size?)? = nil, into stream: RowStream, strict: Bool = false, frame: Int = 1,
                              formats: ImageFormatRegistry? = nil, warn: (String) -> Void = { _ in }) throws -> Bool {
        try decode(bytes, name: name, orient: orient, limits: limits, sizeHint: sizeHint, into: stream, orWhole: false,
                   strict: strict, frame: frame, formats: formats, warn: warn)
    }

    /// Decodes into `stream` whatever the file: row by row when its codec can stream it (as
    /// `decode(_:name:orient:limits:sizeHint:into:strict:frame:formats:warn:)`), else whole and
    /// delivered (`RowStream.deliver`, no copy) — the format recognised and `frame` checked once.
    /// What `decode` streams.
    public static func stream(_ bytes: [UInt8], name: String, orient: Bool = true, limits: PixelLimits,
                              sizeHint: ((Size) -> Size?)? = nil, into stream: RowStream, strict: Bool = false, frame: Int = 1,
                              formats: ImageFormatRegistry? = nil, warn: (String) -> Void = { _ in }) throws {
        _ = try decode(bytes, name: name, orient: orient, limits: limits, sizeHint: sizeHint, into: stream, orWhole: true,
                       strict: strict, frame: frame, formats: formats, warn: warn)
    }

    /// The codec's rows into `stream`; when it cannot stream this file, its whole decode delivered
    /// if `orWhole`, else false with nothing touched.
    private static func decode(_ bytes: [UInt8], name: String, orient: Bool, limits: PixelLimits, sizeHint: ((Size) -> Size?)?,
                               into stream: RowStream, orWhole: Bool, strict: Bool, frame: Int, formats: ImageFormatRegistry?,
                               warn: (String) -> Void) throws -> Bool {
        if orWhole && bytes.isEmpty { throw StageError("\(name): empty file", cause: .unsupported) }
        let decoder = try codec(for: bytes, name: name, frame: frame, formats: formats)
        guard decoder.rows != nil || orWhole else { return false }
        return try withoutActuallyEscaping(warn) { warn in
            let request = ImageCodec.DecodeRequest(bytes: bytes, name: name, orient: orient, limits: limits, sizeHint: sizeHint,
                                                   strict: strict, frame: frame, warn: warn)
            if let rows = decoder.rows, try rows(request, stream) { return true }
            guard orWhole else { return false }
            try stream.deliver(try decoder.whole(request))
            return true
        }
    }

    /// The decoder of the format that recognises `bytes`; a frame past the first refused for a
    /// format without animations.
    static func codec(for bytes: [UInt8], name: String, frame: Int, formats: ImageFormatRegistry?) throws(StageError) -> ImageCodec.Decoder {
        guard let codec = BuiltinCodecs.resolve(formats).decoder(for: bytes), let decoder = codec.decoder else { throw notAnImage(name) }
        guard frame == 1 || decoder.frames else {
            throw StageError.invalidParameter("frame", "\(name) is \(codec.displayName), whose files hold one image; frame=\(frame) applies to animated GIF and WebP")
        }
        return decoder
    }

    /// A built-in format's whole decode (HEIF and AVIF aside): the pixels `pixels` decodes, the
    /// embedded profile, EXIF and XMP in the metadata, and the stored orientation applied when asked.
    static func decode(_ request: ImageCodec.DecodeRequest, format: ImageFormat,
                       pixels: (ImageCodec.DecodeRequest) throws -> Image) throws -> Image {
        let (bytes, name, warn) = (request.bytes, request.name, request.warn)
        var image = try pixels(request)
        let embedded = MetadataReader.read(bytes, format: format)
        embedded.apply(to: &image.metadata, warn: { warn("\(name): \($0)") })
        // The orientation of every format but JPEG and TIFF (their readers turn while decoding),
        // from its EXIF or XMP.
        guard format != .jpeg && format != .tiff else { return image }
        return EXIFOrientation.applying(EXIFOrientation.orientation(of: embedded), to: image, orient: request.orient)
    }
}
