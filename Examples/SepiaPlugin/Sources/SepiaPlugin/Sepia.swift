import SumiPluginSDK

/// Tones an image sepia: each pixel's colour is mixed with its sepia tone (the classic
/// 0.393/0.769/0.189 matrix) by `amount`. Alpha is kept; premultiplied colour stays premultiplied
/// because the matrix is linear and its result is clamped to alpha.
///
/// The stage streams: as a `BandProcessing` stage it tones a streamed image band by band, and the
/// whole-image `process` and `processBand` run the same kernel (`tone(_:into:)`), so both give the
/// same pixels.
public struct Sepia: Stage, BandProcessing {
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

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let input = try inputs.image(Self.input)
        let output = input.pixels.withUnsafeBufferPointer { source in
            Image(width: input.width, height: input.height, metadata: input.metadata.applying(.pixels)) { pixels in
                tone(source, into: pixels)
            }
        }
        return .image(output)
    }

    public func processBand(_ input: ImageBand, into output: MutableImageBand) throws {
        for row in input.rowIndices {
            tone(input[row], into: output[row])
        }
    }

    /// The per-pixel kernel of both paths: tones the RGBA pixels of `source` into `target` (as many
    /// bytes as `source`).
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
