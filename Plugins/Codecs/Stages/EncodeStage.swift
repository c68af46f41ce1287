import SumiKit

/// `encode`: writes an image (or a layer, rasterised on transparent at its own size times
/// `layer-scale`) to a file in PNG, JPEG, WebP, TIFF, BMP, HEIF (HEIC) or AVIF, atomically, with the image's colour profile,
/// EXIF and XMP (see `ProfileMode`, `MetadataMode`); or in a plugin's format (`ImageFormatRegistry`), whose
/// encoder is handed the side data those modes leave.
public struct EncodeStage: Stage, RowStage {
    static let path = Parameter<String>(required: "path", type: .path(.writes), summary: "file to write (- for standard output)")
    static let format = Parameter<String?>("format", summary: "output format: png, jpeg (jpg), webp, tiff, bmp, heif (heic), avif, or a plugin's format (sumi formats lists them); default: from the file extension")
    static let quality = Parameter<Int>("quality", default: 90, min: 1, max: 100, summary: "JPEG, WebP, HEIC and AVIF quality")
    static let compression = Parameter<Int?>("compression", min: 0, max: 9,
                                             summary: "PNG zlib level (default \(PNGEncoder.defaultCompression))")
    static let background = Parameter<Color>("background", default: .white,
                                             summary: "colour that formats without alpha (JPEG, BMP) flatten onto")
    static let profile = Parameter<ProfileMode>("profile", default: .keep,
                                                summary: "colour profile: keep (write the source's), srgb (convert pixels to sRGB and tag it), strip (write none, pixels untouched)")
    static let layerScale = Parameter<Double>("layer-scale", default: 1, min: 0, max: 16, minExclusive: true,
                                              summary: "pixels per layer unit when the input is a layer (a preview for a screen of that device pixel ratio); an image ignores it")
    static let metadata = Parameter<MetadataMode>("metadata", default: .keep,
                                                  summary: "EXIF and XMP: keep (orientation reset, size updated, thumbnail dropped), strip, or strip-location (GPS removed)")

    static let input = Port<Image>("in", accepts: [.image, .layer])

    public static let descriptor = StageDescriptor(
        name: "encode",
        summary: "Writes an image or a layer to a PNG, JPEG, WebP, TIFF, BMP, HEIF (HEIC) or AVIF file, or a plugin's format",
        inputs: [input.spec],
        output: .file,
        parameters: [path.spec, format.spec, quality.spec, compression.spec, background.spec, profile.spec, metadata.spec, layerScale.spec])

    let path: String
    /// The format to write (`ImageFormatRegistry`); `nil` for standard output without `format`:
    /// then the source image's format (PNG when it has none that writes), as `convert in.jpg -` does.
    let codec: ImageCodec?
    /// The registry's formats, for the source's format on standard output.
    let formats: ImageFormatRegistry
    let quality: Int
    let compression: Int?
    let background: Color
    /// Pixels per layer unit for a layer input.
    let layerScale: Double
    /// Parameters the manifest gave explicitly (some may not apply to the format).
    let given: Set<String>
    let profile: ProfileMode
    let metadataMode: MetadataMode

    /// An encoder that knows only the built-in formats.
    public init(parameters: Parameters) throws {
        try self.init(parameters: parameters, formats: BuiltinCodecs.registry)
    }

    /// An encoder that writes the formats of `formats` (the registry the stage is registered in:
    /// `CodecsStages.stages(formats:)`; the built-ins' own when no codecs were registered in it).
    public init(parameters: Parameters, formats: ImageFormatRegistry) throws {
        profile = try parameters[Self.profile]
        metadataMode = try parameters[Self.metadata]
        path = try parameters[Self.path]
        quality = try parameters[Self.quality]
        compression = try parameters[Self.compression]
        background = try parameters[Self.background]
        layerScale = try parameters[Self.layerScale]
        given = parameters.given
        self.formats = formats
        if path != "-", FileIO.isDirectory(path) {
            throw StageError.invalidParameter("path", "\(path) is a folder; give the file to write")
        }
        let registry = BuiltinCodecs.resolve(formats)
        if let name = try parameters[Self.format] {
            guard let chosen = registry.encoder(named: name) else {
                throw StageError.invalidParameter("format", "unknown format \"\(MessageText.cut(name))\"; "
                    + "give one of \(Self.writable(registry).joined(separator: ", "))")
            }
            codec = chosen
        } else if path == "-" {
            codec = nil
        } else {
            let ext = FileIO.fileExtension(of: path)
            guard let chosen = registry.encoder(forExtension: ext) else {
                let what = ext.isEmpty ? "\(path) has no extension" : "unknown extension \".\(ext)\" in \(path)"
                throw StageError.invalidParameter("format", "cannot tell the output format: \(what); give one of \(Self.writable(registry).joined(separator: ", "))")
            }
            codec = chosen
        }
    }

    /// The names of the formats `registry` writes, then their aliases (`jpg`, `heic`).
    static func writable(_ registry: ImageFormatRegistry) -> [String] {
        let writers = registry.codecs.filter { $0.encoder != nil }
        return writers.map(\.name) + writers.flatMap(\.aliases)
    }

    /// The given parameters that `codec` does not use.
    func ignored(for codec: ImageCodec) -> [String] {
        let uses = codec.encoder?.parameters ?? []
        return ["quality", "metadata", "compression", "background"].filter { given.contains($0) && !uses.contains($0) }
    }

    /// Encodes a whole image: formats whose libraries take whole images (WebP, TIFF, HEIF, BMP, a
    /// plugin's), and a colour conversion the rows cannot get.
    private func encodeWhole(_ image: Image, context: StageContext) throws -> Value {
        var image = image
        let codec = resolvedCodec(source: image.metadata)
        guard let encoder = codec.encoder else { throw StageError("\(codec.displayName) output is not supported") }
        warnIgnored(for: codec, context: context)
        // srgb converts; so does keep for a format that cannot carry a profile (BMP): its colours stay right.
        if profile == .srgb || (profile == .keep && !encoder.carriesProfile) {
            try ColorConversion.convert(&image, to: nil)
        }
        let request = request(for: image.metadata, width: image.width, height: image.height, context: context)
        return try write(codec, width: image.width, height: image.height, context: context) {
            try encoder.whole(image, request)
        }
    }

    /// What the format's encoder is given: the parameters, and the side data to write after
    /// `profile=` and `metadata=` (a plugin's encoder is handed the same).
    func request(for metadata: ImageMetadata, width: Int, height: Int, context: StageContext) -> ImageCodec.EncodeRequest {
        let extra = OutputMetadata(for: metadata, width: width, height: height, profile: profile, mode: metadataMode)
        return ImageCodec.EncodeRequest(quality: quality, compression: compression, background: background,
                                        profile: extra.icc, exif: extra.exif, xmp: extra.xmp, context: context)
    }

    /// The image is read as rows; the output is a file.
    public func imageAccess(for port: String) -> ImageAccess { .rows }
    public var producesRows: Bool { false }

    /// Encodes rows as the previous stage produces them (JPEG; PNG once its layout is certain, see
    /// `PNGEncoder.encode(rows:)`); other formats collect the image first (libwebp, libtiff,
    /// libheif and gdk-pixbuf take whole images). Nothing is written before the producer has ended
    /// without error.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        // A layer (text) is drawn at its own size first.
        if case .layer? = inputs[Self.input] { return try encodeWhole(try inputImage(inputs, limits: context.options.limits), context: context) }
        let stream = try inputs.rows(Self.input)
        let shape = try stream.waitForStart()
        let codec = resolvedCodec(source: shape.metadata)
        guard let rows = codec.encoder?.rows, profile != .srgb || ColorProfile.isSRGB(shape.metadata.iccProfile) else {
            return try encodeWhole(try stream.image(), context: context)
        }
        warnIgnored(for: codec, context: context)
        let request = request(for: shape.metadata, width: shape.width, height: shape.height, context: context)
        return try write(codec, width: shape.width, height: shape.height, context: context) {
            let encoded = try rows(stream, shape, request)
            // The producer can fail after its last row (a JPEG without its trailer).
            try stream.waitForEnd()
            return encoded
        }
    }

    /// Encodes (errors named after the output path), writes atomically, and reports the file.
    func write(_ codec: ImageCodec, width: Int, height: Int, context: StageContext,
               encode: () throws -> [UInt8]) throws -> Value {
        let what = "\(path) (\(codec.name), \(width)x\(height))"
        // An uncompressed format's size is known before encoding.
        if let least = codec.encoder?.leastBytes {
            try context.options.checkOutput(bytes: least(width, height), atLeast: true, what: what)
        }
        let bytes: [UInt8]
        do {
            bytes = try encode()
        } catch let error as StageError {
            throw StageError("\(path): \(error.message)", parameter: error.parameter, cause: error.cause)
        }
        try context.options.checkOutput(bytes: bytes.count, what: what)
        try FileIO.writeAtomically(bytes, to: path, recordedIn: context.temporaryFiles)
        return .file(FileOutput(path: path, format: codec.name, bytes: bytes.count,
                                width: Double(width), height: Double(height)))
    }

    /// The format to write: the one given or implied by the path; for standard output without one,
    /// the source's (PNG when it has none that writes).
    func resolvedCodec(source: ImageMetadata) -> ImageCodec {
        if let codec { return codec }
        let registry = BuiltinCodecs.resolve(formats)
        return source.sourceFormat.flatMap { registry.encoder(named: $0) }
            ?? registry.encoder(named: ImageFormat.png.rawValue) ?? BuiltinCodecs.all[0]
    }

    func warnIgnored(for codec: ImageCodec, context: StageContext) {
        for name in ignored(for: codec) {
            context.warn("parameter \"\(name)\" does not apply to \(codec.name) output\(codec.origin == BuiltinCodecs.origin ? "" : " (a plugin's encoder)"); ignored")
        }
    }

    func inputImage(_ inputs: StageInputs, limits: PixelLimits) throws -> Image {
        switch inputs[Self.input] {
        case .layer(let layer)?:
            return try layer.content.rasterize(scaleX: layerScale, scaleY: layerScale, phase: Point(x: 0, y: 0), limits: limits)
        default:
            return try inputs.image(Self.input)
        }
    }
}
