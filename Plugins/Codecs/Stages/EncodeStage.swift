import SumiKit

/// `encode`: writes an image (or a layer, rasterised on transparent at its own size times
/// `layer-scale`) to a file in PNG, JPEG, WebP, TIFF, BMP, HEIF (HEIC) or AVIF, atomically, with the image's colour profile,
/// EXIF and XMP (see `ProfileMode`, `MetadataMode`); or in a plugin's format (`ImageFormatRegistry`), whose
/// encoder is handed the side data those modes leave.
public struct EncodeStage: Stage, RowStage {
    /// The built-in names `format` accepts (a plugin format's name is accepted too).
    enum FormatName: String, CaseIterable { case png, jpeg, jpg, webp, tiff, bmp, heic, heif, avif }

    static let path = Parameter<String>(required: "path", type: .path(.writes), summary: "file to write (- for standard output)")
    static let format = Parameter<String?>("format", summary: "output format: \(FormatName.allCases.map(\.rawValue).joined(separator: ", ")), or the name of a plugin's format (sumi formats lists them); default: from the file extension")
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
    /// The format; `nil` for standard output without `format`: then the source image's format
    /// (PNG when it has none we write), as `convert in.jpg -` does.
    let format: ImageFormat?
    let quality: Int
    let compression: Int?
    let background: Color
    /// Pixels per layer unit for a layer input.
    let layerScale: Double
    /// Parameters the manifest gave explicitly (some may not apply to the format).
    let given: Set<String>
    let profile: ProfileMode
    let metadataMode: MetadataMode
    /// A plugin's encoder, for an extension no built-in format writes (`ImageFormatRegistry`).
    let pluginFormat: PluginFormat?

    /// An encoder that knows only the built-in formats.
    public init(parameters: Parameters) throws {
        try self.init(parameters: parameters, formats: ImageFormatRegistry())
    }

    /// An encoder that also writes the plugin formats of `formats` (the registry the stage is
    /// registered in: `CodecsStages.stages(formats:)`).
    public init(parameters: Parameters, formats: ImageFormatRegistry) throws {
        profile = try parameters[Self.profile]
        metadataMode = try parameters[Self.metadata]
        path = try parameters[Self.path]
        quality = try parameters[Self.quality]
        compression = try parameters[Self.compression]
        background = try parameters[Self.background]
        layerScale = try parameters[Self.layerScale]
        given = parameters.given
        if path != "-", FileIO.isDirectory(path) {
            throw StageError.invalidParameter("path", "\(path) is a folder; give the file to write")
        }
        if let name = try parameters[Self.format] {
            if let builtin = FormatName(rawValue: name) {
                guard let chosen = ImageFormat(fileExtension: builtin.rawValue), ImageFormat.writable.contains(chosen) else {
                    throw StageError.invalidParameter("format", "unknown format \"\(name)\"")
                }
                format = chosen
                pluginFormat = nil
            } else if let plugin = formats.encoder(named: name) {
                format = nil
                pluginFormat = plugin
            } else {
                let plugins = formats.formats.filter { $0.encode != nil }.map(\.name)
                throw StageError.invalidParameter("format", "unknown format \"\(MessageText.cut(name))\"; "
                    + "give one of \((FormatName.allCases.map(\.rawValue) + plugins).joined(separator: ", "))")
            }
        } else {
            let ext = FileIO.fileExtension(of: path)
            let names = ImageFormat.writable.map(\.rawValue).joined(separator: ", ")
            if path == "-" {
                format = nil
                pluginFormat = nil
                return
            }
            guard let chosen = ImageFormat(fileExtension: ext), ImageFormat.writable.contains(chosen) else {
                if let plugin = formats.encoder(forExtension: ext) {
                    pluginFormat = plugin
                    format = nil
                    return
                }
                let what = ext.isEmpty ? "\(path) has no extension" : "unknown extension \".\(ext)\" in \(path)"
                throw StageError.invalidParameter("format", "cannot tell the output format: \(what); give one of \(names)")
            }
            format = chosen
            pluginFormat = nil
        }
    }

    /// The given parameters that `format` does not use.
    func ignored(for format: ImageFormat) -> [String] {
        var ignored: [String] = []
        if given.contains("quality") && !(format == .jpeg || format == .webp || format == .heif || format == .avif) {
            ignored.append("quality")
        }
        if given.contains("metadata") && format == .bmp { ignored.append("metadata") }
        if given.contains("compression") && format != .png { ignored.append("compression") }
        if given.contains("background") && format.carriesAlpha { ignored.append("background") }
        return ignored
    }

    /// Encodes a whole image: formats whose libraries take whole images (WebP, TIFF, HEIF, BMP, a
    /// plugin's), and a colour conversion the rows cannot get.
    private func encodeWhole(_ image: Image, context: StageContext) throws -> Value {
        var image = image
        if let pluginFormat, let encode = pluginFormat.encode {
            // The encoder gets the side data to write, after profile= and metadata=, as built-in encoders do.
            for name in ["quality", "compression", "background"] where given.contains(name) {
                context.warn("parameter \"\(name)\" does not apply to \(pluginFormat.name) output (a plugin's encoder); ignored")
            }
            if profile == .srgb { try ColorConversion.convert(&image, to: nil) }
            let handed = OutputMetadata(for: image.metadata, width: image.width, height: image.height,
                                        profile: profile, mode: metadataMode)
            image.metadata.iccProfile = handed.icc
            image.metadata.exif = handed.exif
            image.metadata.xmp = handed.xmp
            let bytes = try encode(image, context)
            try context.options.checkOutput(bytes: bytes.count, what: "\(path) (\(pluginFormat.name))")
            try FileIO.writeAtomically(bytes, to: path, recordedIn: context.temporaryFiles)
            return .file(FileOutput(path: path, format: pluginFormat.name, bytes: bytes.count,
                                    width: Double(image.width), height: Double(image.height)))
        }
        let format = resolvedFormat(source: image.metadata)
        warnIgnored(for: format, context: context)
        // srgb converts; so does keep for BMP, which cannot carry a profile (its colours stay right).
        if profile == .srgb || (profile == .keep && format == .bmp) {
            try ColorConversion.convert(&image, to: nil)
        }
        let extra = OutputMetadata(for: image.metadata, width: image.width, height: image.height,
                                   profile: profile, mode: metadataMode)
        return try write(format: format, width: image.width, height: image.height, context: context) {
            let encoded = try encode(image, as: format, metadata: extra)
            return extra.embedded(in: encoded, format: format, width: image.width, height: image.height,
                                  warn: context.warn)
        }
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
        let format = resolvedFormat(source: shape.metadata)
        guard pluginFormat == nil, format == .jpeg || format == .png,
              profile != .srgb || ColorProfile.isSRGB(shape.metadata.iccProfile) else {
            return try encodeWhole(try stream.image(), context: context)
        }
        warnIgnored(for: format, context: context)
        let extra = OutputMetadata(for: shape.metadata, width: shape.width, height: shape.height,
                                   profile: profile, mode: metadataMode)
        return try write(format: format, width: shape.width, height: shape.height, context: context) {
            let encoded = format == .png
                ? try PNGEncoder.encode(rows: stream, compression: compression)
                : try JPEGEncoder.encode(rows: stream, quality: quality, background: background)
            // The producer can fail after its last row (a JPEG without its trailer).
            try stream.waitForEnd()
            return extra.embedded(in: encoded, format: format, width: shape.width, height: shape.height,
                                  warn: context.warn)
        }
    }

    /// Encodes (errors named after the output path), writes atomically, and reports the file.
    func write(format: ImageFormat, width: Int, height: Int, context: StageContext,
               encode: () throws -> [UInt8]) throws -> Value {
        // An uncompressed BMP's size is known before encoding: 3 bytes a pixel.
        if format == .bmp {
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            try context.options.checkOutput(bytes: overflow ? Int.max : pixels * 3, atLeast: true, what: "\(path) (\(format.rawValue), \(width)x\(height))")
        }
        let bytes: [UInt8]
        do {
            bytes = try encode()
        } catch let error as StageError {
            throw StageError("\(path): \(error.message)", parameter: error.parameter, cause: error.cause)
        }
        try context.options.checkOutput(bytes: bytes.count, what: "\(path) (\(format.rawValue), \(width)x\(height))")
        try FileIO.writeAtomically(bytes, to: path, recordedIn: context.temporaryFiles)
        return .file(FileOutput(path: path, format: format.rawValue, bytes: bytes.count,
                                width: Double(width), height: Double(height)))
    }

    /// The format to write: the one given or implied by the path; for standard output without one,
    /// the source's (PNG when it has none this stage writes).
    func resolvedFormat(source: ImageMetadata) -> ImageFormat {
        format ?? source.sourceFormat
            .flatMap { ImageFormat(fileExtension: $0) }
            .flatMap { ImageFormat.writable.contains($0) ? $0 : nil } ?? .png
    }

    func warnIgnored(for format: ImageFormat, context: StageContext) {
        for name in ignored(for: format) {
            context.warn("parameter \"\(name)\" does not apply to \(format.rawValue) output; ignored")
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

    func encode(_ image: Image, as format: ImageFormat, metadata: OutputMetadata) throws -> [UInt8] {
        switch format {
        case .jpeg: try JPEGEncoder.encode(image, quality: quality, background: background)
        case .png: try PNGEncoder.encode(image, compression: compression)
        case .webp: try WebPEncoder.encode(image, quality: quality)
        case .tiff: try TIFFEncoder.encode(image, profile: metadata.icc)
        case .heif, .avif: try HEIFEncoder.encode(image, format: format, quality: quality, metadata: metadata)
        case .bmp: try BMPEncoder.encode(image, background: background)
        case .gif: throw StageError("GIF output is not supported")
        }
    }
}
