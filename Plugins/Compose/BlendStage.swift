import SumiCodecs
import SumiKit

/// `blend`: draws one layer, or a list of images used as layers, onto an image with a `BlendMode`
/// and an opacity.
///
/// Each layer is rasterised at its own placement and size (a vector layer at its final scale, so it
/// stays sharp; a turned layer drawn turned, into its turned bounding box cut to the base) and only
/// that rectangle of the base is composited; a layer partly or wholly outside
/// the base is clipped. A layer that misses the base entirely is not even rasterised, and leaves the
/// base's pixels (and its pass-through source bytes) untouched. A layer whose colour space differs
/// from the base's (text and shapes are sRGB, as their colours are given; a raster layer has its
/// own profile) is converted to the base's space first (lcms2, relative colorimetric), so a red
/// caption is the same red on an Adobe RGB photo as on an sRGB one.
public struct BlendStage: Stage, BandStage {
    /// The largest layer, in pixels at its placement, that `blend` rasterises (Pillow's decompression
    /// bound, as `decode` uses): a mistaken placement fails instead of exhausting memory.
    public static let maxLayerPixels: Double = 178_956_970

    static let mode = Parameter<BlendMode>("mode", default: .over,
                                              summary: "how layer and base colours mix (W3C Compositing and Blending formulas; add is Porter-Duff plus)")
    static let opacity = Parameter<Double>("opacity", default: 1, min: 0, max: 1,
                                              summary: "the layer's opacity, multiplying its own alpha")

    static let base = Port<Image>("base")
    static let layer = Port<Layer>("layer", accepts: [.layer, .images])

    public static let descriptor = StageDescriptor(
        name: "blend",
        summary: "Draws a placed layer (or a list of images) onto an image",
        inputs: [base.spec, layer.spec],
        output: .image,
        effect: .pixels,
        parameters: [mode.spec, opacity.spec])

    public let mode: BlendMode
    public let opacity: Double

    public init(parameters: Parameters) throws {
        mode = try parameters[Self.mode]
        opacity = try parameters[Self.opacity]
    }

    /// The base is read as rows (band by band); the layers whole.
    public var bandPort: Port<Image> { Self.base }

    /// The layers are rasterised once (memory bounded by their size); then each band of the base is
    /// copied to the output and the layers' rows that fall on it composited (`BandStage` runs the
    /// bands, in a plugin build through the ABI's band callbacks too).
    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        let list = try layers(inputs)
        let pieces = try list.enumerated().compactMap {
            try rendered($0.element, number: list.count > 1 ? $0.offset : nil, base: shape, limits: context.options.limits)
        }
        let changed = pieces.contains {
            Compositor.reaches($0.image, atX: $0.x, y: $0.y, width: shape.width, height: shape.height, opacity: self.opacity)
        }
        let (mode, opacity) = (self.mode, self.opacity)
        return BandPlan(metadata: changed ? Self.drawnOn(shape.metadata) : shape.metadata) { source, target in
            for row in target.rows { _ = target.row(row).update(fromContentsOf: source.row(row)) }
            for piece in pieces {
                Compositor.composite(piece.image, atX: piece.x, y: piece.y, ontoRows: target.rows, of: shape.width,
                                     mode: mode, opacity: opacity) { target.row($0).baseAddress.unsafelyUnwrapped }
            }
        }
    }

    /// Side data after drawing: pixels changed; source-over onto an opaque base stays opaque, whatever
    /// the layer.
    static func drawnOn(_ metadata: ImageMetadata) -> ImageMetadata {
        var drawn = metadata.applying(.pixels)
        drawn.knownOpaque = metadata.knownOpaque
        return drawn
    }

    private func layers(_ inputs: StageInputs) throws -> [Layer] {
        switch inputs[Self.layer] {
        case .layer(let layer)?: return [layer]
        case .image(let image)?: return [Layer(image: image)]
        case .images(let images)?: return try images.images().map { Layer(image: $0) }
        case let other:
            throw StageError("port \"layer\": expected a layer, an image or a list of images, got \(other?.kind.rawValue ?? "nothing")")
        }
    }

    /// The refusal of a layer over `maxLayerPixels` where it is placed, in the user's terms: its size
    /// in pixels, how many times the limit and the image's width or height that is, and what makes it smaller.
    static func tooLarge(_ which: String, bounds: Rect, base: ImageShape) -> StageError {
        let w = bounds.width.rounded(.up), h = bounds.height.rounded(.up)
        func times(_ x: Double) -> String { (x >= 10 ? formatNumber(x.rounded()) : formatNumber((x * 10).rounded() / 10)) + "×" }
        let wide = w / Double(max(1, base.width)), tall = h / Double(max(1, base.height))
        return StageError.limit("port \"layer\": \(which) would be \(formatNumber(w))x\(formatNumber(h)) pixels where it is placed "
            + "(\(formatNumber((w * h / 1_000_000).rounded())) megapixels): \(times(w * h / maxLayerPixels)) the most blend "
            + "draws of one layer (\(formatNumber(maxLayerPixels)) pixels) and \(times(max(wide, tall))) the "
            + "\(wide >= tall ? "width" : "height") of the \(base.width)x\(base.height) image it is drawn on; make the layer "
            + "smaller (for a caption: a smaller size or shorter text, or a frame as large as the preview it was placed on)")
    }

    /// `layer` rasterised at its placement in the base's colour space, with its top-left in base
    /// pixels; nil when it cannot touch the base (then it is not even rasterised).
    private func rendered(_ layer: Layer, number: Int?, base: ImageShape, limits: PixelLimits) throws -> (image: Image, x: Int, y: Int)? {
        let which = number.map { "layer \($0)" } ?? "layer"
        let bounds = layer.bounds
        guard bounds.x.isFinite, bounds.y.isFinite, bounds.width.isFinite, bounds.height.isFinite else {
            throw StageError("port \"layer\": \(which) has a non-finite placement (\(bounds))")
        }
        guard opacity > 0, bounds.width > 0, bounds.height > 0,
              bounds.maxX > 0, bounds.maxY > 0,
              bounds.x < Double(base.width), bounds.y < Double(base.height) else { return nil }
        guard bounds.width * bounds.height <= BlendStage.maxLayerPixels else {
            throw Self.tooLarge(which, bounds: bounds, base: base)
        }
        var (image, x, y) = try layer.rendered(clippedTo: (base.width, base.height), limits: limits)
        if !ColorProfile.sameSpace(image.metadata.iccProfile, base.metadata.iccProfile) {
            try ColorConversion.convert(&image, to: base.metadata.iccProfile)
        }
        return (image, x, y)
    }
}
