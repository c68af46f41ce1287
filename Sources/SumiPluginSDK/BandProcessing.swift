import SumiKit

/// The band methods of the deprecated `BandProcessing`, under a name the SDK uses without a
/// deprecation warning. Not for plugin authors: write a `BandStage`.
public protocol _BandProcessingMethods: Stage, BandStage {
    func beginBands(width: Int, height: Int) throws
    func processBand(_ input: ImageBand, into output: MutableImageBand) throws
    func endBands(completed: Bool) throws
}

/// Deprecated: a plugin stage streams as a `BandStage`, the protocol the built-in stages use (its
/// `bands(over:inputs:context:)` returns a `BandPlan` whose body writes each band's rows, numbered
/// as in the image; the whole-image `process` comes with it, so the stage has one pixel path).
///
/// `BandProcessing` is kept, working, as an adapter over `BandStage` for stages written against it:
/// `beginBands(width:height:)` once, then `processBand(_:into:)` for consecutive bands (rows numbered
/// from 0 within the band), then `endBands(completed:)`; the stage still writes its whole-image
/// `process(_:context:)`, and both paths must give the same pixels. Its band port is its first
/// input; the result carries the input's side data under the descriptor's `effect`.
///
/// Moving to `BandStage`: put `beginBands`'s work at the start of `bands(over:inputs:context:)`
/// (`shape.width`, `shape.height`), return `BandPlan(metadata: shape.metadata.applying(effect))`
/// whose body loops `for y in output.rows { kernel(input.row(y), into: output.row(y)) }`, and delete
/// `process(_:context:)` and `processBand`. State `endBands` freed belongs in a class the plan's body
/// holds (freed with it).
@available(*, deprecated, message: "write a BandStage (bands(over:inputs:context:) returning a BandPlan); BandProcessing is an adapter over it")
public protocol BandProcessing: _BandProcessingMethods {}

extension _BandProcessingMethods {
    public func beginBands(width: Int, height: Int) throws {}
    public func endBands(completed: Bool) throws {}

    /// The first input, whatever its name (the one port the band callbacks ever took).
    public var bandPort: Port<Image> { Port<Image>(Self.descriptor.inputs.first?.name ?? "in") }

    /// The adapter: `beginBands`, then a plan whose body hands each band to `processBand`, its side
    /// data the input's under the descriptor's `effect`.
    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        let plan = try bandPlan(width: shape.width, height: shape.height)
        let metadata: ImageMetadata = switch Self.descriptor.effect {
        case .pixels: shape.metadata.applying(.pixels)
        case .creates: ImageMetadata()
        case .geometry, .unknown: shape.metadata.applying(.unknown)
        }
        return BandPlan(metadata: metadata, body: plan.body)
    }

    /// `BandStage`'s row path with `endBands` after the last band (or, failed, after the failure).
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(bandPort)
        let shape = try input.waitForStart()
        let plan = try bands(over: shape, inputs: inputs, context: context)
        var completed = false
        defer { if !completed { try? endBands(completed: false) } }
        try output.begin(ImageShape(width: shape.width, height: shape.height, metadata: plan.metadata))
        try output.mapBands(from: input, plan.body)
        completed = true
        try endBands(completed: true)
        return nil
    }

    /// `beginBands`, then the plan whose body hands each band to `processBand` (the same body for
    /// the host's bands and for `runBands`); no side data (the host applies the effect).
    func bandPlan(width: Int, height: Int) throws -> BandPlan {
        try beginBands(width: width, height: height)
        return BandPlan(metadata: ImageMetadata()) { input, output in
            try processBand(ImageBand(input), into: MutableImageBand(output))
        }
    }
}
