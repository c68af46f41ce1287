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
        mask = UnsharpMask(amount: Float(try parameters[Self.amount]), threshold: try parameters[Self.threshold])
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

    /// The unsharp arithmetic, on premultiplied colour: the difference of the value from its blur
    /// (rounded to whole levels, as Pillow's integer blur) moves the value by `amount` times it
    /// where the difference's size reaches `threshold`; the result is clamped to 0…alpha, and the
    /// alpha is the source's. In integers after the one rounding of the blur, so every step is a
    /// vector operation.
    struct UnsharpMask: BlurredRowWriter {
        let amount: Float
        /// The least difference sharpened, in whole levels (differences are whole).
        let threshold: Int32

        init(amount: Float, threshold: Double) {
            self.amount = amount
            self.threshold = Int32(threshold.rounded(.up))
        }

        var needsSource: Bool { true }

        /// All bits in the colour lanes, none in the alpha lanes.
        static let colourLanes = SIMD8<Int32>(-1, -1, -1, 0, -1, -1, -1, 0)

        @inline(__always)
        func write(blurred: SIMD8<Float>, source: SIMD8<UInt8>) -> SIMD8<UInt8> {
            let original = SIMD8<Int32>(truncatingIfNeeded: source)
            let difference = original &- blurred.integers
            let push = (difference.floats * amount).integers
            // All bits where the difference is below the threshold.
            let small = (difference.magnitude &- threshold) &>> 31
            let sharpened = (original &+ (push & ~small)).clamped(0, 255).minimum(original.alphas)
            let result = (sharpened & Self.colourLanes) | (original & ~Self.colourLanes)
            return SIMD8<UInt8>(truncatingIfNeeded: result)
        }
    }
}
