/// A row stage that makes each band of its image from the same rows of the image on one port
/// (`bandPort`, read as rows), with its other inputs taken whole beforehand — `blend` (the layers
/// rasterised once, then composited into each band of the base) or a per-pixel filter.
///
/// The stage writes only `bands(over:inputs:context:)`: the output's side data and the band body.
/// Its row path (`process(_:context:output:)`) comes from this extension and runs the body through
/// `RowStream.mapBands`; a plugin host runs the very same body across the C ABI (the Swift SDK
/// exports such a stage with the band callbacks `band_start`, `band_process` and `band_end`), so a
/// stage built into Sumi or built as a plugin streams the same way.
///
/// ```swift
/// struct Invert: Stage, BandStage {
///     func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
///         BandPlan(metadata: shape.metadata.applying(.pixels)) { input, output in
///             for y in output.rows { Invert.kernel(input.row(y), into: output.row(y)) }
///         }
///     }
/// }
/// ```
public protocol BandStage: RowStage {
    /// The port read as rows (`.rows` access); the default is `Port<Image>("in")`.
    var bandPort: Port<Image> { get }

    /// Prepares the bands: `shape` is the size and side data of the image on `bandPort` (the
    /// output has the same size); `inputs` holds the other ports' values, whole. Called once, before
    /// the first band.
    func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan
}

extension BandStage {
    public var bandPort: Port<Image> { Port<Image>("in") }

    /// The band port is read as rows, the other ports whole.
    public func imageAccess(for port: String) -> ImageAccess { port == bandPort.name ? .rows : .whole }

    /// The row path: the plan for the band port's shape, then its body over every band
    /// (`RowStream.mapBands`).
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(bandPort)
        let shape = try input.waitForStart()
        let plan = try bands(over: shape, inputs: inputs, context: context)
        try output.begin(ImageShape(width: shape.width, height: shape.height, metadata: plan.metadata))
        try output.mapBands(from: input, plan.body)
        return nil
    }
}
