import SumiKit

/// `blur` — a Gaussian blur of standard deviation `sigma` (or `radius`, the same number under the
/// name Pillow's `GaussianBlur(radius)` and CSS `blur()` give it), streamed by rows (`GaussianRows`).
public struct BlurStage: Stage, RowStage {
    static let sigma = Parameter<Double?>("sigma", min: 0, max: GaussianKernel.maxSigma, minExclusive: true,
                                          summary: "the Gaussian's standard deviation in pixels (ImageMagick -blur 0xσ, libvips gaussblur σ); default 1")
    static let radius = Parameter<Double?>("radius", min: 0, max: GaussianKernel.maxSigma, minExclusive: true,
                                           summary: "the same as sigma, under Pillow's GaussianBlur(radius) and CSS blur() name")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "blur",
        summary: "Gaussian blur (sigma in pixels; edges extended); streams, memory independent of height",
        inputs: [input.spec],
        output: .image,
        effect: .pixels,
        parameters: [sigma.spec, radius.spec])

    let kernel: GaussianKernel

    public init(parameters: Parameters) throws {
        let sigma = try parameters[Self.sigma], radius = try parameters[Self.radius]
        if sigma != nil && radius != nil {
            throw StageError.invalidParameter("radius", "radius is another name for sigma: give one of them")
        }
        kernel = GaussianKernel(sigma: sigma ?? radius ?? 1)
    }

    public func imageAccess(for port: String) -> ImageAccess { .rows }

    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(Self.input)
        let shape = try input.waitForStart()
        // Blurring keeps an opaque image opaque: the alpha is a weighted mean of opaque alphas.
        var metadata = shape.metadata.applying(.pixels)
        metadata.knownOpaque = shape.metadata.knownOpaque
        _ = try GaussianRows(kernel: kernel).run(input, into: output, metadata: metadata, writer: Blurred())
        return nil
    }

    /// The blurred values, rounded. Premultiplied colour stays at or below its alpha without a
    /// clamp: each channel is the same weighted sum, and rounding keeps order.
    struct Blurred: BlurredRowWriter {
        var needsSource: Bool { false }
        @inline(__always)
        func write(blurred: SIMD8<Float>, source: SIMD8<UInt8>) -> SIMD8<UInt8> { blurred.bytes }
    }
}
