/// How a stage uses the image on one of its input ports.
public enum ImageAccess: Sendable {
    /// The whole image, as a value (the default).
    case whole
    /// Rows top to bottom, through a `RowStream` (`StageInputs.rows(_:)`); the stage must be a
    /// `RowStage`. Its producer then need not hold the whole image.
    case rows
    /// Only the size and side data (`StageInputs.shape(_:)`), never the pixels: such a port does not
    /// count as a pixel consumer, so it neither forces a full buffer nor waits for the pixels.
    case shape
}

/// A stage that can take part in band processing: it reads some image inputs as row streams and/or
/// writes its image output as one. It opts in port by port with `imageAccess(for:)`; the engine
/// connects it to its neighbours with bounded `RowStream`s, each stage on its own thread. The band
/// sequence is `RowStream.mapBands`; a stage that makes each band from the same rows of one input,
/// its other inputs whole, is a `BandStage` and writes only its band body.
///
/// The row path is the stage's only pixel code: the engine always runs it, and the whole-image
/// `process(_:context:)` comes from an extension that runs it on whole values. When a neighbour
/// works on whole images, the engine adapts: a whole image becomes a complete stream
/// (`RowStream.whole`), and an output stream is collected into an image (`RowStream.image()`) for a
/// consumer that needs it whole.
///
/// ```swift
/// struct Invert: Stage, RowStage {
///     func imageAccess(for port: String) -> ImageAccess { .rows }
///     var producesRows: Bool { true }
///     func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
///         let input = try inputs.rows(Port<Image>("in")), out = try outputStream(output)
///         let shape = try input.waitForStart()
///         try out.begin(ImageShape(width: shape.width, height: shape.height, metadata: shape.metadata.applying(.pixels)))
///         try out.mapBands(from: input) { source, target in
///             for y in target.rows { Invert.kernel(source.row(y), into: target.row(y)) }
///         }
///         return nil
///     }
/// }
/// ```
public protocol RowStage: StageInstance {
    /// Whether the stage, as configured, writes one image as rows into the `output` stream it is
    /// given (default true). A stage whose output is not an image (a file, a list) says false.
    var producesRows: Bool { get }

    /// The streamed run. Ports whose access is `.rows` are read with `inputs.rows(_:)`, `.shape`
    /// ports with `inputs.shape(_:)`, others as usual. When `producesRows`, `output` is the stream
    /// to write (`begin`, then rows top to bottom) and the stage returns nil; otherwise `output` is
    /// nil and the stage returns its value. The engine calls `output.finish()` after the stage
    /// returned without error, and `fail` on every stream when any stage failed.
    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value?
}

extension RowStage {
    public var producesRows: Bool { true }
}
