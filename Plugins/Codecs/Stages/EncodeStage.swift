import SumiKit

/// `encode`: writes an image (or a layer, rasterised at its own size on transparent) to a file in
/// PNG, JPEG, WebP, TIFF or BMP, atomically.
public struct EncodeStage: Stage {
    public static let descriptor = StageDescriptor(
        name: "encode",
        summary: "Writes an image or a layer to a PNG, JPEG, WebP, TIFF or BMP file",
        inputs: [PortSpec(name: "in", accepts: [.image, .layer])],
        output: .file,
        parameters: [
            ParameterSpec("path", .path, required: true, summary: "file to write (- for standard output)"),
            ParameterSpec("format", .string, values: ["png", "jpeg", "jpg", "webp", "tiff", "bmp"],
                          summary: "output format (default: from the file extension)"),
            ParameterSpec("quality", .integer, default: .integer(90), min: 1, max: 100,
                          summary: "JPEG and WebP quality"),
            ParameterSpec("compression", .integer, min: 0, max: 9,
                          summary: "PNG zlib level (default \(PNGEncoder.defaultCompression))"),
            ParameterSpec("background", .color, default: .color(.white),
                          summary: "colour that formats without alpha (JPEG, BMP) flatten onto"),
        ])

    let path: String
    let format: ImageFormat
    let quality: Int
    let compression: Int?
    let background: Color
    /// Parameters given that the chosen format does not use.
    let ignored: [String]

    public init(parameters: Parameters) throws {
        path = parameters.string("path") ?? "-"
        if let name = parameters.string("format") {
            guard let chosen = ImageFormat(fileExtension: name), ImageFormat.writable.contains(chosen) else {
                throw StageError.invalidParameter("format", "unknown format \"\(name)\"")
            }
            format = chosen
        } else {
            let ext = FileIO.fileExtension(of: path)
            let names = ImageFormat.writable.map(\.rawValue).joined(separator: ", ")
            guard path != "-" else {
                throw StageError.invalidParameter("format", "writing to standard output needs a format (\(names))")
            }
            guard let chosen = ImageFormat(fileExtension: ext), ImageFormat.writable.contains(chosen) else {
                let what = ext.isEmpty ? "\(path) has no extension" : "unknown extension \".\(ext)\" in \(path)"
                throw StageError.invalidParameter("format", "cannot tell the output format: \(what); give one of \(names)")
            }
            format = chosen
        }
        quality = parameters.integer("quality") ?? 90
        compression = parameters.integer("compression")
        background = parameters.color("background") ?? .white

        var ignored: [String] = []
        if parameters.isGiven("quality") && !(format == .jpeg || format == .webp) { ignored.append("quality") }
        if parameters.isGiven("compression") && format != .png { ignored.append("compression") }
        if parameters.isGiven("background") && format.carriesAlpha { ignored.append("background") }
        self.ignored = ignored
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        for name in ignored {
            context.warn("parameter \"\(name)\" does not apply to \(format.rawValue) output; ignored")
        }
        let image = try inputImage(inputs)
        let bytes: [UInt8]
        do {
            bytes = try encode(image)
        } catch let error as StageError {
            throw StageError("\(path): \(error.message)")
        }
        try FileIO.writeAtomically(bytes, to: path)
        return .file(FileOutput(path: path, format: format.rawValue, bytes: bytes.count,
                                width: Double(image.width), height: Double(image.height)))
    }

    func inputImage(_ inputs: StageInputs) throws -> Image {
        switch inputs["in"] {
        case .layer(let layer)?:
            return try layer.content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        default:
            return try inputs.image("in")
        }
    }

    func encode(_ image: Image) throws -> [UInt8] {
        switch format {
        case .jpeg: try JPEGEncoder.encode(image, quality: quality, background: background)
        case .png: try PNGEncoder.encode(image, compression: compression)
        case .webp: try WebPEncoder.encode(image, quality: quality)
        case .tiff: try TIFFEncoder.encode(image)
        case .bmp: try BMPEncoder.encode(image, background: background)
        case .gif: throw StageError("GIF output is not supported")
        }
    }
}
