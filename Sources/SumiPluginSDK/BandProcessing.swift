import SumiKit

/// A Swift stage that can also process its image band by band, so a streamed pipeline
/// (`decode → stage → encode`) never holds the whole image in the plugin.
///
/// The stage must take one image input and make an image of the same size (`effect: .pixels` is
/// the usual descriptor). When the host streams the stage, it calls, on one instance and one band at
/// a time: `beginBands(width:height:)` once, then `processBand(_:into:)` for consecutive bands top
/// to bottom (each row exactly once), then `endBands(completed:)`. Otherwise it calls the whole-image
/// `process(_:context:)`. Both paths must give the same pixels: share one per-pixel kernel between
/// them.
///
/// Bands are short (at most a few dozen rows) and their height varies, so never assume one. Pixels
/// are 8-bit RGBA, colour premultiplied by alpha. In band mode the result carries the input's side
/// data under the descriptor's `effect`; the stage cannot warn or set side data there.
///
/// ```swift
/// struct Invert: Stage, BandProcessing {
///     ...
///     func processBand(_ input: ImageBand, into output: MutableImageBand) throws {
///         for row in input.rowIndices {
///             Invert.kernel(input[row], into: output[row])
///         }
///     }
/// }
/// ```
///
/// Errors thrown from any of the three methods fail the run (exit code 1) with their message, and
/// no output file is written.
public protocol BandProcessing: Stage {
    /// Called once before the first band with the image's size. The default does nothing.
    func beginBands(width: Int, height: Int) throws

    /// Reads the band's rows from `input` and writes the same rows of the result into `output`
    /// (same `firstRow`, `rowCount` and `width`). Both views are valid only during the call.
    func processBand(_ input: ImageBand, into output: MutableImageBand) throws

    /// Called once after `beginBands` succeeded: `completed` is true when every band was processed
    /// (an error thrown then fails the run), false when the run stopped early (free band state; an
    /// error thrown then is ignored). The default does nothing.
    func endBands(completed: Bool) throws
}

extension BandProcessing {
    public func beginBands(width: Int, height: Int) throws {}
    public func endBands(completed: Bool) throws {}

    /// `beginBands`, then the plan whose body hands each band to `processBand` (the same body for
    /// the host's bands and for `runBands`).
    func bandPlan(width: Int, height: Int) throws -> BandPlan {
        try beginBands(width: width, height: height)
        return BandPlan(metadata: ImageMetadata()) { input, output in
            try processBand(ImageBand(input), into: MutableImageBand(output))
        }
    }
}

