import CSumiCodecs
import SumiKit

/// The formats Sumi reads and writes with its own codecs, as `ImageCodec`s: what the codecs family
/// registers in a stage registry's `ImageFormatRegistry` before any plugin (`CodecsStages`), and
/// the only place that says, for each format, which reader and writer serve it.
public enum BuiltinCodecs {
    public static let origin = "builtin"

    /// Every built-in format; gdk-pixbuf's loaders last, as a fallback.
    public static let all: [ImageCodec] = [
        codec(.png, extensions: ["png"], magic: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
              whole: { r in try PNGDecoder.decode(r.bytes, name: r.name, limits: r.limits, verified: r.verified, warn: r.warn) },
              rows: { request, stream in
                  guard EXIFOrientation.stored(in: request.bytes, format: .png) == 1 else { return false }
                  return try PNGDecoder.decode(request.bytes, name: request.name, limits: request.limits, into: stream, warn: request.warn)
              },
              encoder: ImageCodec.Encoder(
                parameters: ["compression", "metadata"],
                whole: { image, request in
                    try embedded(PNGEncoder.encode(image, compression: request.compression), .png, image.width, image.height, request)
                },
                rows: { stream, shape, request in
                    try embedded(PNGEncoder.encode(rows: stream, compression: request.compression), .png, shape.width, shape.height, request)
                }),
              support: ImageCodec.Support(profile: "ICC (iCCP); reads sRGB and cICP", metadata: "EXIF (eXIf; raw profile text), XMP (iTXt)",
                                          notes: "EXIF orientation applied on decode; compression 0-9")),
        codec(.jpeg, extensions: ["jpg", "jpeg", "jpe", "jfif"], aliases: ["jpg"], magic: [0xFF, 0xD8, 0xFF],
              whole: { r in
                  try JPEGDecoder.decode(r.bytes, name: r.name, orient: r.orient, limits: r.limits, sizeHint: r.sizeHint,
                                         strict: r.strict, warn: r.warn)
              },
              rows: { request, stream in
                  try JPEGDecoder.decode(request.bytes, name: request.name, orient: request.orient, limits: request.limits,
                                         sizeHint: request.sizeHint, into: stream, strict: request.strict, warn: request.warn)
              },
              encoder: ImageCodec.Encoder(
                parameters: ["quality", "background", "metadata"],
                whole: { image, request in
                    try embedded(JPEGEncoder.encode(image, quality: request.quality, background: request.background),
                             .jpeg, image.width, image.height, request)
                },
                rows: { stream, shape, request in
                    try embedded(JPEGEncoder.encode(rows: stream, quality: request.quality, background: request.background),
                             .jpeg, shape.width, shape.height, request)
                }),
              support: ImageCodec.Support(profile: "ICC (APP2 chunks)", metadata: "EXIF (APP1), XMP (APP1, Extended XMP)",
                                          notes: "EXIF orientation applied on decode; a damaged file decoded with a warning (strict=true refuses it); quality"),
              available: { _ in loads(sumi_libjpeg_open) }),
        codec(.webp, extensions: ["webp"], magic: Array("RIFF".utf8),
              whole: { r in
                  WebPDecoder.isAnimated(r.bytes) ? try WebPDecoder.decodeAnimation(r.bytes, name: r.name, limits: r.limits, frame: r.frame)
                      : try WebPDecoder.decode(r.bytes, name: r.name, limits: r.limits)
              },
              rows: { request, stream in
                  guard request.frame == 1, EXIFOrientation.stored(in: request.bytes, format: .webp) == 1,
                        !WebPDecoder.isAnimated(request.bytes) else { return false }
                  try WebPDecoder.decode(request.bytes, name: request.name, limits: request.limits, into: stream, warn: request.warn)
                  return true
              },
              encoder: ImageCodec.Encoder(
                parameters: ["quality", "metadata"],
                whole: { image, request in
                    try embedded(WebPEncoder.encode(image, quality: request.quality), .webp, image.width, image.height, request)
                }),
              support: ImageCodec.Support(profile: "ICC (ICCP)", metadata: "EXIF, XMP chunks",
                                          notes: "an animation's first frame (frame=N another), composited; EXIF orientation applied on decode; lossy output with alpha; quality"),
              available: { _ in loads(sumi_libwebp_open) }, frames: true),
        codec(.tiff, extensions: ["tif", "tiff"], magic: [0x49, 0x49, 0x2A, 0x00],
              whole: { r in try TIFFDecoder.decode(r.bytes, name: r.name, orient: r.orient, limits: r.limits) },
              rows: { request, stream in
                  try TIFFDecoder.decode(request.bytes, name: request.name, orient: request.orient, limits: request.limits,
                                         into: stream, warn: request.warn)
              },
              encoder: ImageCodec.Encoder(
                parameters: ["metadata"],
                whole: { image, request in
                    try embedded(TIFFEncoder.encode(image, profile: request.profile), .tiff, image.width, image.height, request)
                }),
              support: ImageCodec.Support(
                profile: "ICC (tag 34675)", metadata: "EXIF (IFD0 and EXIF/GPS IFDs), XMP (tag 700)",
                notes: "read with libtiff: first directory, BigTIFF, 1-32-bit and float samples to 8 bits, "
                    + "CMYK, CIELab to sRGB, Orientation applied; self-contained maker notes carried "
                    + "(Nikon, Apple, Fujifilm, Olympus), others left out"),
              available: { encode in encode ? (try? PixbufLibrary.functions(for: .tiff)) != nil : tiffLoads() }),
        codec(.bmp, extensions: ["bmp", "dib"], magic: Array("BM".utf8),
              whole: { r in try BMPDecoder.decode(r.bytes, name: r.name, limits: r.limits) },
              rows: { request, stream in
                  try BMPDecoder.decode(request.bytes, name: request.name, limits: request.limits, into: stream)
                  return true
              },
              encoder: ImageCodec.Encoder(
                parameters: ["background"], carriesProfile: false,
                leastBytes: { width, height in
                    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                    return overflow || pixels > Int.max / 3 ? Int.max : pixels * 3
                },
                whole: { image, request in try BMPEncoder.encode(image, background: request.background) }),
              support: ImageCodec.Support(notes: "1-32-bit, bitfields, RLE4/RLE8, OS/2; 24-bit output; a kept profile is converted to sRGB")),
        heifCodec(.heif, extensions: ["heic", "heif", "hif"], aliases: ["heic"],
                  notes: "HEIC via libheif (libde265 decode, x265 encode); irot/imir applied; quality"),
        heifCodec(.avif, extensions: ["avif"], aliases: [], notes: "via libheif (dav1d decode, libaom encode); quality"),
        codec(.gif, extensions: ["gif"], magic: Array("GIF8".utf8),
              whole: { r in try GIFDecoder.decode(r.bytes, name: r.name, limits: r.limits, frame: r.frame) },
              rows: { request, stream in
                  // A later frame is composited whole.
                  guard request.frame == 1 else { return false }
                  try GIFDecoder.decode(request.bytes, name: request.name, limits: request.limits, into: stream)
                  return true
              },
              encoder: nil, support: ImageCodec.Support(notes: "an animation's first frame (frame=N another), composited as Pillow shows it (giflib)"),
              available: { _ in loads(sumi_libgif_open) }, frames: true),
        codec(.ico, extensions: ["ico", "cur"], magic: [0, 0, 1, 0],
              whole: { r in try ICODecoder.decode(r.bytes, name: r.name, limits: r.limits, warn: r.warn) },
              rows: nil, encoder: nil,
              support: ImageCodec.Support(notes: "Windows icons and cursors: the largest entry (then the deepest), PNG or BMP inside")),
        codec(.tga, extensions: ["tga", "icb", "vda", "vst"], magic: [0, 0, 2] + [UInt8](repeating: 0, count: 9) + [1, 0, 1, 0, 24, 0x20],
              whole: { r in try TGADecoder.decode(r.bytes, name: r.name, limits: r.limits) },
              rows: { r, stream in try TGADecoder.decode(r.bytes, name: r.name, limits: r.limits, into: stream); return true },
              encoder: nil,
              support: ImageCodec.Support(notes: "colour-mapped, true colour and grey, run-length or not, any origin; alpha as the file declares it")),
        codec(.qoi, extensions: ["qoi"], magic: Array("qoif".utf8),
              whole: { r in try QOIDecoder.decode(r.bytes, name: r.name, limits: r.limits) },
              rows: { r, stream in try QOIDecoder.decode(r.bytes, name: r.name, limits: r.limits, into: stream); return true },
              encoder: nil, support: ImageCodec.Support(notes: "RGB and RGBA")),
        codec(.jp2, extensions: ["jp2", "j2k", "j2c", "jpc", "jpf", "jpx"], magic: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20],
              whole: { r in try JPEG2000Decoder.decode(r.bytes, name: r.name, limits: r.limits, warn: r.warn) },
              rows: nil, encoder: nil,
              support: ImageCodec.Support(notes: "JP2 files and J2K codestreams via libopenjp2 (opened on first use): grey, RGB, sYCC, alpha; samples of any depth to 8 bits"),
              available: { encode in !encode && JPEG2000Decoder.libraryLoads }),
        pixbuf,
    ]

    /// A registry of the built-in formats alone: what a decode uses when its context's registry
    /// has none (a stage run by a test without a stage registry).
    public static let registry: ImageFormatRegistry = {
        let registry = ImageFormatRegistry()
        registry.register(all, warn: { _ in })
        return registry
    }()

    /// `registry` when the codecs family registered into it, else the built-ins' own.
    public static func resolve(_ registry: ImageFormatRegistry?) -> ImageFormatRegistry {
        guard let registry, registry.codec(named: ImageFormat.png.rawValue)?.origin == origin else { return Self.registry }
        return registry
    }

    /// Whether a library the shims open on first use (`sumi_libjpeg_open` and the like) loads.
    private static func loads(_ open: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> Bool {
        var message = [CChar](repeating: 0, count: 600)
        return message.withUnsafeMutableBufferPointer { open($0.baseAddress, $0.count) } == 0
    }

    private static func codec(_ format: ImageFormat, extensions: [String], aliases: [String] = [], magic: [UInt8],
                              whole: @escaping @Sendable (ImageCodec.DecodeRequest) throws -> Image,
                              rows: (@Sendable (ImageCodec.DecodeRequest, RowStream) throws -> Bool)?,
                              encoder: ImageCodec.Encoder?, support: ImageCodec.Support,
                              available: (@Sendable (Bool) -> Bool)? = nil, frames: Bool = false) -> ImageCodec {
        ImageCodec(name: format.rawValue, displayName: format.displayName, extensions: extensions, aliases: aliases, origin: origin,
                   magic: magic, probe: { ImageFormat(detecting: $0) == format },
                   decoder: ImageCodec.Decoder(whole: { try ImageDecoder.decode($0, format: format, pixels: whole) }, rows: rows, frames: frames),
                   encoder: encoder, support: support, available: available)
    }

    private static func heifCodec(_ format: ImageFormat, extensions: [String], aliases: [String], notes: String) -> ImageCodec {
        ImageCodec(name: format.rawValue, displayName: format.displayName, extensions: extensions, aliases: aliases, origin: origin,
                   magic: [0, 0, 0, 0x18] + Array("ftyp".utf8), probe: { ImageFormat(detecting: $0) == format },
                   decoder: ImageCodec.Decoder(whole: { request in
                       try HEIFDecoder.decode(request.bytes, format: format, name: request.name, limits: request.limits, warn: request.warn)
                   }),
                   encoder: ImageCodec.Encoder(
                    parameters: ["quality", "metadata"],
                    whole: { image, request in
                        try HEIFEncoder.encode(image, format: format, quality: request.quality,
                                               metadata: OutputMetadata(icc: request.profile, exif: request.exif, xmp: request.xmp))
                    }),
                   support: ImageCodec.Support(profile: "ICC or nclx (read), ICC (write)", metadata: "EXIF, XMP", notes: notes),
                   available: { encode in HEIFLibrary.has(format, encode: encode) })
    }

    /// The formats gdk-pixbuf's installed loaders add (`PixbufFormats`), asked last; `sumi formats`
    /// lists them one by one.
    static let pixbuf = ImageCodec(
        name: "gdk-pixbuf", displayName: "gdk-pixbuf", extensions: [], origin: origin, magic: [],
        probe: { PixbufFormats.detect(Array($0.prefix(PixbufFormats.sniffLength))) != nil },
        decoder: ImageCodec.Decoder(whole: { request in
            guard let format = PixbufFormats.detect(Array(request.bytes.prefix(PixbufFormats.sniffLength))) else {
                throw ImageDecoder.notAnImage(request.name)
            }
            return try PixbufDecoder.decode(request.bytes, format: format, name: request.name, limits: request.limits)
        }),
        encoder: nil, isFallback: true)

    /// Whether libtiff, which reads TIFF, can be opened.
    private static func tiffLoads() -> Bool {
        var missing: UnsafePointer<CChar>?
        return sumi_tiff_library(&missing) == 0
    }

    /// `encoded` with the request's profile, EXIF and XMP embedded as `format` stores them.
    private static func embedded(_ encoded: [UInt8], _ format: ImageFormat, _ width: Int, _ height: Int,
                                 _ request: ImageCodec.EncodeRequest) throws -> [UInt8] {
        try OutputMetadata(icc: request.profile, exif: request.exif, xmp: request.xmp)
            .embedded(in: encoded, format: format, width: width, height: height, warn: request.context.warn)
    }
}
