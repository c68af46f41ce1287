import SumiEngine
import SumiKit

/// Small stages for exercising the core without image codecs.
struct SolidStage: Stage {
    static let descriptor = StageDescriptor(
        name: "solid", summary: "A solid image", output: .image,
        parameters: [
            ParameterSpec("size", .size, default: .size(Size(width: 4, height: 3)), summary: "size"),
            ParameterSpec("color", .color, default: .color(.white), summary: "fill"),
        ])
    let size: Size
    let color: Color
    init(parameters: Parameters) throws {
        size = parameters.size("size") ?? Size(width: 1, height: 1)
        color = parameters.color("color") ?? .white
    }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        .image(Image(width: Int(size.width), height: Int(size.height), fill: color))
    }
}

struct InvertStage: Stage {
    static let descriptor = StageDescriptor(
        name: "invert", summary: "Inverts colours", inputs: [PortSpec(name: "in", accepts: .image)], output: .image,
        parameters: [ParameterSpec("amount", .number, default: .number(1), min: 0, max: 1, summary: "how much")])
    init(parameters: Parameters) throws {}
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        var image = try inputs.image(Port("in"))
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            image.pixels[i] = 255 - image.pixels[i]
            image.pixels[i + 1] = 255 - image.pixels[i + 1]
            image.pixels[i + 2] = 255 - image.pixels[i + 2]
        }
        return .image(image)
    }
}

/// Records a file output without writing anything.
struct SinkStage: Stage {
    static let descriptor = StageDescriptor(
        name: "sink", summary: "Reports an output", inputs: [PortSpec(name: "in", accepts: [.image, .layer])],
        output: .file, parameters: [ParameterSpec("path", .path(.writes), required: true, summary: "where")])
    let path: String
    init(parameters: Parameters) throws { path = parameters.string("path") ?? "" }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image(Port("in"))
        context.warn("sink saw \(image.width)x\(image.height)")
        return .file(FileOutput(path: path, format: "raw", bytes: image.pixels.count,
                                width: Double(image.width), height: Double(image.height)))
    }
}

/// Two ports, for wiring tests.
struct PairStage: Stage {
    static let descriptor = StageDescriptor(
        name: "pair", summary: "Uses two images",
        inputs: [PortSpec(name: "base", accepts: .image), PortSpec(name: "layer", accepts: .layer)], output: .image)
    init(parameters: Parameters) throws {}
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        .image(try inputs.image(Port("base")))
    }
}

/// Collects a list.
struct CountStage: Stage {
    static let descriptor = StageDescriptor(
        name: "count", summary: "Counts images", inputs: [PortSpec(name: "in", accepts: .images)], output: .file)
    init(parameters: Parameters) throws {}
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let images = try inputs.images(Port("in"))
        return .file(FileOutput(path: "-", format: "count", bytes: images.count, width: 0, height: 0))
    }
}

struct FailStage: Stage {
    static let descriptor = StageDescriptor(
        name: "fail", summary: "Always fails", inputs: [PortSpec(name: "in", accepts: .image)], output: .image,
        parameters: [ParameterSpec("cause", .string, default: .string("data"), summary: "the cause it fails with")])
    static let causes: [String: StageError.Cause] = ["data": .data, "usage": .usage, "unsupported": .unsupported,
                                                     "limit": .limit, "io": .io, "plugin": .plugin]
    let cause: StageError.Cause
    init(parameters: Parameters) throws { cause = Self.causes[parameters.string("cause") ?? "data"] ?? .data }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        throw StageError("the data was bad", cause: cause)
    }
}

/// One solid image per size; a list of sizes makes a list of images (declared, so validation knows).
struct SolidsStage: Stage {
    static let descriptor = StageDescriptor(
        name: "solids", summary: "Solid images", output: .image, listOutputParameter: "sizes",
        parameters: [ParameterSpec("sizes", .either([.size, .list(.size)]), required: true, summary: "sizes")])
    let sizes: [Size]
    let isList: Bool
    init(parameters: Parameters) throws {
        if case .list(let items)? = parameters["sizes"] {
            isList = true
            sizes = items.compactMap { if case .size(let s) = $0 { s } else { nil } }
        } else {
            isList = false
            sizes = [parameters.size("sizes") ?? Size(width: 1, height: 1)]
        }
    }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let images = sizes.map { Image(width: Int($0.width), height: Int($0.height), fill: .white) }
        return isList ? .images(ImageList(images)) : .image(images[0])
    }
}

func testRegistry() throws -> StageRegistry {
    let registry = StageRegistry()
    try registry.register([SolidStage.self, SolidsStage.self, InvertStage.self, SinkStage.self, PairStage.self, CountStage.self, FailStage.self]
        .map { StageDefinition($0) })
    return registry
}

extension StageDefinition {
    init(_ type: any Stage.Type) {
        self.init(descriptor: type.descriptor) { try type.init(parameters: $0) }
    }
}

/// Loads a manifest from text and builds it with its defaults.
/// `stages` are registered beside the test stages; `file` names the manifest in messages.
func build(_ text: String, overrides: [String: ParamValue] = [:], adding stages: [any Stage.Type] = [],
           file: String = "test.json") throws -> Pipeline {
    let registry = try testRegistry()
    if !stages.isEmpty { try registry.register(stages.map { StageDefinition($0) }) }
    let manifest = try ManifestLoader.parse(Array(text.utf8), path: "/manifests/" + file) // a name only: nothing is read or written there
    let values = try PipelineBuilder.parameterValues(manifest, overrides: overrides)
    return try PipelineBuilder(registry: registry).build(manifest, values: values)
}

/// The message of the error `body` throws, or nil.
func errorMessage(_ body: () throws -> Void) -> String? {
    do { try body(); return nil } catch { return "\(error)" }
}
