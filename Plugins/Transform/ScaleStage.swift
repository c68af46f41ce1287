import SumiKit

/// `scale` — resizes an image: to a width and/or height (the missing one keeps the aspect ratio),
/// or by a factor; `fit` decides what happens when both sides are given.
public struct ScaleStage: Stage, RowStage {
    static let width = Parameter<Int?>("width", min: 1, max: 65535,
                                       summary: "output width in pixels; alone (or with height 0), the height keeps the aspect ratio")
    static let height = Parameter<Int?>("height", min: 0, max: 65535,
                                        summary: "output height in pixels; alone, the width keeps the aspect ratio; 0 is not given")
    static let factor = Parameter<Double?>("factor", min: 0, max: 64, minExclusive: true,
                                           summary: "scale both sides by this factor (instead of width/height)")
    static let fit = Parameter<ScaleGeometry.Fit>("fit", default: .contain,
                                                  summary: "with width and height: contain (fit inside), cover (fill and crop the overflow), fill (stretch)")
    static let gravity = Parameter<CropGravity>("gravity", default: .center,
                                                summary: "with fit=cover: which part to keep, as crop's gravity (an anchor, attention or entropy)")
    static let filter = Parameter<ResampleFilter>("filter", default: .lanczos3, summary: "resampling filter")
    static let enlarge = Parameter<Bool>("enlarge", default: true,
                                         summary: "false: only shrink — an image already smaller than the target is left as it is")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "scale",
        summary: "Resize an image (lanczos3, bicubic, bilinear, nearest or box; correct on premultiplied alpha)",
        inputs: [input.spec],
        output: .image,
        effect: .geometry,
        parameters: [width.spec, height.spec, factor.spec, fit.spec, gravity.spec, filter.spec, enlarge.spec])

    /// How the output size follows from the input size.
    public let geometry: ScaleGeometry
    public let filter: ResampleFilter

    public init(parameters: Parameters) throws {
        // A height of 0 is one not given: a pipeline passes its own default through (thumbnail.json's).
        let width = try parameters[Self.width]
        let height = try parameters[Self.height].flatMap { $0 == 0 ? nil : $0 }
        let factor = try parameters[Self.factor]
        if factor != nil && (width != nil || height != nil) {
            throw StageError.invalidParameter("factor", "give either factor or width/height, not both")
        }
        if factor == nil && width == nil && height == nil {
            throw StageError.invalidParameter("width", "give width, height or factor")
        }
        geometry = ScaleGeometry(width: width, height: height, factor: factor, fit: try parameters[Self.fit],
                                 enlarge: try parameters[Self.enlarge], gravity: try parameters[Self.gravity])
        filter = try parameters[Self.filter]
    }

    /// The input is read as rows.
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    /// The streamed path: a resize runs band by band (`Resampler.resize(rows:…)`, the same bytes as
    /// the whole path), `cover` crops the resized rows (`coverRows`); only the oversized cases collect
    /// the image and run whole.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(Self.input)
        let shape = try input.waitForStart()
        let p = geometry.plan(width: shape.metadata.fullWidth ?? shape.width, height: shape.metadata.fullHeight ?? shape.height)
        // The size it makes, checked before a row is read (a 1x45000000 strip scaled to 64 wide
        // would be 64x2880000000): the output, and the resized image `cover` crops from.
        let limits = context.options.limits
        let sourceName = "scaling \(shape.width)x\(shape.height)"
        try limits.check(width: p.outputWidth, height: p.outputHeight, making: sourceName)
        let resizeFits = !ScaleGeometry.exceedsLimit(p.resizeWidth, p.resizeHeight) && limits.allows(width: p.resizeWidth, height: p.resizeHeight)
        let unchanged = p.resizeWidth == shape.width && p.resizeHeight == shape.height && shape.metadata.fullWidth == nil
        if unchanged, p.outputWidth == shape.width, p.outputHeight == shape.height {
            // Nothing to resize: the rows pass as they are (the whole path returns the image itself).
            try output.begin(shape)
            try RowCopy.run(input, rows: 0..<shape.height, into: output) { source, destination in
                _ = destination.update(fromContentsOf: source)
            }
        } else if !unchanged, resizeFits, shape.width > 0, shape.height > 0 {
            if p.outputWidth == p.resizeWidth, p.outputHeight == p.resizeHeight {
                try Resampler(filter: filter).resize(rows: input, width: p.resizeWidth, height: p.resizeHeight, into: output)
            } else {
                try coverRows(input, plan: p, into: output)
            }
        } else {
            try output.deliver(try geometry.apply(to: try input.image(), filter: filter, limits: limits))
        }
        return nil
    }

    /// `cover`: the source is resized band by band into a stream that holds the resized image (never
    /// the source), whose crop then passes on row by row — the bytes of `ScaleGeometry.apply`'s
    /// resize-then-crop. A content-aware gravity measures the resized image it already holds.
    private func coverRows(_ input: RowStream, plan: ScaleGeometry.Plan, into output: RowStream) throws {
        var resized = RowStream(capacity: Int.max)
        try Resampler(filter: filter).resize(rows: input, width: plan.resizeWidth, height: plan.resizeHeight, into: resized)
        resized.finish()
        var p = plan
        if geometry.gravity.measure != nil {
            let image = try resized.image()
            (p.cropX, p.cropY) = geometry.cropOffset(plan, in: image)
            resized = RowStream.whole(image)
        }
        let x0 = max(0, p.cropX), y0 = max(0, p.cropY)
        let width = max(0, min(p.resizeWidth, p.cropX + p.outputWidth) - x0)
        let height = max(0, min(p.resizeHeight, p.cropY + p.outputHeight) - y0)
        let metadata = try resized.waitForStart().metadata.applying(.geometry(.crop(x: x0, y: y0, width: width, height: height)))
        try output.begin(ImageShape(width: width, height: height, metadata: metadata))
        let columns = x0 * 4 ..< (x0 + width) * 4
        try RowCopy.run(resized, rows: y0 ..< y0 + height, into: output) { source, destination in
            _ = destination.update(fromContentsOf: UnsafeBufferPointer(rebasing: source[columns]))
        }
    }

    /// When the stage only shrinks, a decoder may hand it any image at least as large as the output.
    public func reducedInputSize(for size: Size) -> Size? {
        let plan = geometry.plan(width: Int(size.width), height: Int(size.height))
        guard plan.resizeWidth <= Int(size.width), plan.resizeHeight <= Int(size.height) else { return nil }
        return Size(width: Double(plan.resizeWidth), height: Double(plan.resizeHeight))
    }
}
