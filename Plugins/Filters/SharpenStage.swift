import SumiKit

/// `sharpen` — an unsharp mask: each colour value moves away from its Gaussian-blurred value by
/// `amount` times their difference, where that difference is at least `threshold` levels. The
/// parameters are Pillow's `UnsharpMask(radius, percent, threshold)` (sigma = radius, amount =
/// percent / 100) and ImageMagick's `-unsharp 0xσ+amount+threshold` (its threshold is a fraction of
/// the range compared with twice the difference: threshold = T·255/2).
public struct SharpenStage: Stage, RowStage {
    static let sigma = Parameter<Double>("sigma", default: 1, min: 0, max: GaussianKernel.maxSigma, minExclusive: true,
                                         summary: "the blur's standard deviation in pixels (Pillow's UnsharpMask radius)")
    static let amount = Parameter<Double>("amount", default: 1, min: 0, max: 20,
                                          summary: "how far past the blur to push: 1 adds the difference once (Pillow's percent / 100)")
    static let threshold = Parameter<Double>("threshold", default: 0, min: 0, max: 255,
                                             summary: "the least difference from the blur, in 8-bit levels, that is sharpened")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "sharpen",
        summary: "Unsharp mask (sigma, amount, threshold as Pillow's UnsharpMask); streams, memory independent of height",
        inputs: [input.spec],
        output: .image,
        effect: .pixels,
        parameters: [sigma.spec, amount.spec, threshold.spec])

    let kernel: GaussianKernel
    let mask: UnsharpMask

    public init(parameters: Parameters) throws {
        kernel = GaussianKernel(sigma: try parameters[Self.sigma])
        mask = UnsharpMask(amount: Float(try parameters[Self.amount]), threshold: Float(try parameters[Self.threshold]))
    }

    public func imageAccess(for port: String) -> ImageAccess { .rows }

    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(Self.input)
        let shape = try input.waitForStart()
        // Alpha is kept as it is, so an opaque image stays opaque.
        var metadata = shape.metadata.applying(.pixels)
        metadata.knownOpaque = shape.metadata.knownOpaque
        _ = try GaussianRows(kernel: kernel).run(input, into: output, metadata: metadata, writer: mask)
        return nil
    }

    /// The unsharp arithmetic, on premultiplied colour: the difference from the blur (its value
    /// rounded, as Pillow's integer blur) moves the value where its size reaches `threshold`; the
    /// result is clamped to 0…alpha, and the alpha is the source's.
    struct UnsharpMask: BlurredRowWriter {
        let amount: Float
        let threshold: Float

        var needsSource: Bool { true }

        @inline(__always)
        func write(blurred: SIMD8<Float>, source: SIMD8<UInt8>) -> SIMD8<UInt8> {
            let original = source.floats
            let difference = original - (blurred + 0.5).rounded(.down)
            let sharpened = original + difference * amount
            var result = original
            result.replace(with: sharpened, where: abs(difference) .>= threshold)
            let alpha = original.alphas
            result = pointwiseMin(result, alpha)
            // Lanes 3 and 7: the alpha itself, unchanged.
            result.replace(with: original, where: SIMD8<Int32>(0, 0, 0, -1, 0, 0, 0, -1) .!= 0)
            return result.bytes
        }
    }
}

private func abs(_ v: SIMD8<Float>) -> SIMD8<Float> { pointwiseMax(v, -v) }
