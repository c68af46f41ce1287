import SumiPluginSDK

/// Tones an image sepia: each pixel's colour is mixed with its sepia tone (the classic
/// 0.393/0.769/0.189 matrix) by `amount`. Alpha is kept; premultiplied colour stays premultiplied
/// because the matrix is linear and its result is clamped to alpha.
///
/// The stage is a `BandStage`, as Sumi's built-in per-pixel stages are: its one pixel path is the
/// band body `bands(over:inputs:context:)` returns, which tones the rows of each band it is given.
/// Sumi runs that body band by band when the image streams (`decode → sepia → encode` never holds
/// the whole image in the plugin), and the whole-image `process` the SDK derives from it runs the
/// same body over the image as one band.
public struct Sepia: Stage, BandStage {
    /// The port and the parameter, each declared once as a typed key: the descriptor lists them and
    /// the stage reads them through them.
    static let input = Port<Image>("in")
    static let amount = Parameter<Double>("amount", default: 1, min: 0, max: 1,
                                          summary: "how much of the sepia tone to mix in (0 keeps the image)")

    public static let descriptor = StageDescriptor(
        name: "sepia",
        summary: "Tones an image sepia",
        inputs: [input.spec],
        output: .image,
        effect: .pixels,
        parameters: [amount.spec])

    let amount: Double

    public init(parameters: Parameters) throws {
        amount = try parameters[Self.amount]
    }

    /// The port whose rows come in bands.
    public var bandPort: Port<Image> { Self.input }

    /// Called once per image, before its first band: `shape` is the input's size and side data (the
    /// output has the same size). The plan's side data is the input's, its pixels changed; its body
    /// gets the same rows of the input and of the output, numbered as in the image, and writes every
    /// byte of the output's rows.
    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        BandPlan(metadata: shape.metadata.applying(.pixels)) { input, output in
            for y in output.rows {
                tone(input.row(y), into: output.row(y))
            }
        }
    }

    /// The per-pixel kernel: tones the RGBA pixels of `source` (one row) into `target` (as many bytes).
    func tone(_ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>) {
        let keep = 1 - amount
        var i = 0
        while i + 3 < source.count {
            let r = Double(source[i]), g = Double(source[i + 1]), b = Double(source[i + 2])
            let a = Double(source[i + 3])
            let tone = (0.393 * r + 0.769 * g + 0.189 * b,
                        0.349 * r + 0.686 * g + 0.168 * b,
                        0.272 * r + 0.534 * g + 0.131 * b)
            target[i] = Sepia.channel(keep * r + amount * tone.0, limit: a)
            target[i + 1] = Sepia.channel(keep * g + amount * tone.1, limit: a)
            target[i + 2] = Sepia.channel(keep * b + amount * tone.2, limit: a)
            target[i + 3] = source[i + 3]
            i += 4
        }
    }

    static func channel(_ value: Double, limit: Double) -> UInt8 {
        UInt8(min(limit, max(0, value)).rounded())
    }
}
