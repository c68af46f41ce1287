import Dispatch
import SumiKit
import Synchronization

/// `decode`: reads image files (or standard input for `-`) into images.
///
/// One path gives an image; a list of paths gives a list of images (`.images`), in order, each
/// decoded when the consumer takes it (one ahead while it works on another). The descriptor says so (`listOutputParameter`), so validation refuses a list wired
/// into a port that takes one image.
public struct DecodeStage: Stage, RowStage {
    static let path = Parameter<[String]>(required: "path", type: .either([.path(.reads), .paths(.reads)]),
                                          summary: "file to read (- for standard input), or a list of files")
    static let orient = Parameter<Bool>("orient", default: true,
                                        summary: "apply the stored orientation: JPEG and TIFF (their Orientation tag), PNG and WebP (EXIF), XMP tiff:Orientation when EXIF has none; HEIF irot/imir are always applied")
    static let strict = Parameter<Bool>("strict", default: false,
                                        summary: "refuse a damaged file its decoder can read only in part (a truncated or corrupt JPEG) instead of decoding what it can, the rest grey, with a warning")
    static let frame = Parameter<Int>("frame", default: 1, min: 1,
                                      summary: "which frame of an animated GIF or WebP to read, from 1, composited as a viewer shows it (still images have one); a GIF's frames up to it together may hold 8 x max-pixels")
    /// The most pixels a decoded image may have in a confined run (`--safe` caps `max-pixels` to it).
    public static let safeMaxPixels = 50_000_000
    static let maxPixels = Parameter<Int>("max-pixels", default: ImageDecoder.defaultMaxPixels, min: 1,
                                          safeMax: Double(safeMaxPixels),
                                          summary: "refuse images with more pixels than this or than the run allows (the lower holds), or rows wider than the run allows, before decoding (HEIF/AVIF: every pixel decoded, a grid's tiles as well as its canvas)")

    public static let descriptor = StageDescriptor(
        name: "decode",
        summary: "Reads a PNG, JPEG, GIF, BMP, TIFF, WebP, HEIF (HEIC), AVIF, ICO, TGA, QOI or JPEG 2000 file (or a format gdk-pixbuf's "
            + "loaders add: `sumi formats`), or a list of them, as 8-bit RGBA: integer samples of more bits are rounded "
            + "(v x 255 / (2^n - 1), so 16-bit 65535 is 255), float samples map 0.0-1.0 to 0-255 (clamped; a TIFF's "
            + "SMinSampleValue-SMaxSampleValue when given), CMYK and Lab become sRGB; an animation's first frame, or the one frame= names",
        output: .image,
        listOutputParameter: "path",
        parameters: [path.spec, orient.spec, maxPixels.spec, strict.spec, frame.spec])

    let paths: [String]
    let isList: Bool
    let orient: Bool
    let maxPixels: Int
    let strict: Bool
    let frame: Int

    public init(parameters: Parameters) throws {
        paths = try parameters[Self.path]
        isList = Self.descriptor.outputKind(for: parameters) == .images
        guard !paths.isEmpty else { throw StageError.invalidParameter("path", "expected at least one file") }
        if paths.filter({ $0 == "-" }).count > 1 {
            throw StageError.invalidParameter("path", "standard input (-) can be read only once")
        }
        orient = try parameters[Self.orient]
        maxPixels = try parameters[Self.maxPixels]
        strict = try parameters[Self.strict]
        frame = try parameters[Self.frame]
    }

    /// The limits an image read here is held to: the stage's `max-pixels` or the run's, whichever is
    /// lower, and the run's widest row. Both are checked at the header, before any row exists.
    func limits(_ context: StageContext) -> PixelLimits {
        PixelLimits(maxPixels: min(maxPixels, context.options.limits.maxPixels), maxWidth: context.options.limits.maxWidth)
    }

    /// A list's images; one image comes from the row path (`processByRows`), the stage's one path
    /// for a single file.
    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        guard isList else { return try processByRows(inputs, context: context) }
        let sizeHint = context.sizeHint, formats = context.formats
        let warn = context.warn, limits = limits(context)
        // Each file is read and recognised now (so a missing or foreign file fails here); its pixels
        // are decoded when the consumer takes the image, and again if it takes it again. Warnings
        // are given once per file. Standard input, readable once, is kept as read.
        return .images(ImageList(sources: try paths.map { path in
            let name = path == "-" ? "standard input" : path
            let kept = path == "-" ? try ImageDecoder.read(path, name: name, formats: formats) : nil
            if kept == nil { _ = try ImageDecoder.read(path, name: name, formats: formats) }
            let warnings = WarnOnce(warn)
            let decoded = Mutex<Int?>(nil)
            return ImageSource(producing: { [self] in
                let bytes = try kept ?? ImageDecoder.read(path, name: name, formats: formats)
                // Taken again (stitch reads its list twice): a PNG's checksums were checked the first
                // time, if the bytes read now are the same.
                // (Hashed as one buffer: `[UInt8].hashValue` hashes byte by byte, generically.)
                let fingerprint = ImageFormat(detecting: bytes) == .png
                    ? bytes.withUnsafeBytes { raw in var h = Hasher(); h.combine(bytes: raw); return h.finalize() } : nil
                let verified = fingerprint != nil && decoded.withLock { $0 } == fingerprint
                let image = try ImageDecoder.decode(bytes, name: name, orient: orient, maxPixels: limits.maxPixels,
                                                    maxWidth: limits.maxWidth, sizeHint: sizeHint, verified: verified,
                                                    strict: strict, frame: frame, formats: formats, warn: warnings.warn)
                if let fingerprint { decoded.withLock { $0 = fingerprint } }
                return image
            })
        }))
    }

    /// A list of images is handed over whole.
    public var producesRows: Bool { !isList }

    /// One file through `ImageDecoder.stream`: what its codec streams (an upright JPEG band by band,
    /// DCT-scaled as the whole decode; PNG, WebP, TIFF, GIF's first frame, BMP, TGA and QOI row by
    /// row) flows as rows; any other image (one to turn, a later frame) is decoded whole and passed
    /// through the stream.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        guard !isList, let output else { return try process(inputs, context: context) }
        let name = paths[0] == "-" ? "standard input" : paths[0]
        let bytes = try ImageDecoder.read(paths[0], name: name, formats: context.formats)
        try ImageDecoder.stream(bytes, name: name, orient: orient, limits: limits(context), sizeHint: context.sizeHint, into: output,
                                strict: strict, frame: frame, formats: context.formats, warn: context.warn)
        return nil
    }
}

/// Passes on each distinct warning once: a file decoded twice warns once.
private final class WarnOnce: Sendable {
    private let given = Mutex<Set<String>>([])
    private let forward: @Sendable (String) -> Void

    init(_ forward: @escaping @Sendable (String) -> Void) { self.forward = forward }

    @Sendable func warn(_ message: String) {
        if given.withLock({ $0.insert(message).inserted }) { forward(message) }
    }
}
