import SumiKit

/// `crop` — cuts a rectangle out of an image: an exact `rect`, or a `size` placed by `gravity` (an
/// anchor, or `attention`/`entropy`, which look at the content).
///
/// With an anchor or a `rect` only the kept rows are copied and the rest released unseen. A
/// content-aware gravity cannot know its window before the last row, so it reads the input whole
/// (4 bytes a pixel, the input the run's pixel limit already allowed), measures it on a grid of at
/// most 256×256 cells (`InterestingRegion`) and then copies the window's rows the same way (the
/// window it chose is the stage's `details` in the run report); when the size keeps the whole image
/// nothing is held.
public struct CropStage: Stage, RowStage {
    static let rect = Parameter<Rect?>("rect", summary: "the rectangle to keep, \"X,Y,W,H\" in pixels; it must lie inside the image")
    static let size = Parameter<Size?>("size", summary: "the size to keep, \"WxH\" (a side larger than the image keeps the whole side)")
    static let gravity = Parameter<CropGravity>("gravity", default: .center,
                                                summary: "with size: which part to keep — an anchor, or attention (edges, colour, skin: what draws the eye) or entropy (the busiest tones), which read the whole image first")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "crop",
        summary: "Cut a rectangle out of an image (a rect, or a size placed by gravity)",
        inputs: [input.spec],
        output: .image,
        effect: .geometry,
        parameters: [rect.spec, size.spec, gravity.spec])

    enum Region: Sendable {
        case rect(x: Int, y: Int, width: Int, height: Int)
        case size(width: Int, height: Int, gravity: CropGravity)
    }

    let region: Region

    public init(parameters: Parameters) throws {
        let rect = try parameters[Self.rect], size = try parameters[Self.size]
        if rect != nil && size != nil { throw StageError.invalidParameter("size", "give either rect or size, not both") }
        if let r = rect {
            guard let x = Self.whole(r.x), let y = Self.whole(r.y), let w = Self.whole(r.width), let h = Self.whole(r.height) else {
                throw StageError.invalidParameter("rect", "expected whole pixels, got \(r)")
            }
            guard x >= 0, y >= 0, w >= 1, h >= 1 else {
                throw StageError.invalidParameter("rect", "expected x, y >= 0 and a width and height of at least 1, got \(r)")
            }
            if parameters.isGiven(Self.gravity) { throw StageError.invalidParameter("gravity", "gravity places a size; rect is exact") }
            region = .rect(x: x, y: y, width: w, height: h)
        } else if let s = size {
            guard let w = Self.whole(s.width), let h = Self.whole(s.height), w >= 1, h >= 1 else {
                throw StageError.invalidParameter("size", "expected whole pixels of at least 1, got \(s)")
            }
            region = .size(width: w, height: h, gravity: try parameters[Self.gravity])
        } else {
            throw StageError.invalidParameter("rect", "give rect, or size (with gravity)")
        }
    }

    static func whole(_ v: Double) -> Int? {
        guard v == v.rounded(), abs(v) <= 1_073_741_824 else { return nil }
        return Int(v)
    }

    /// The input is read as rows.
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    /// The streamed path: only the kept rows are copied (from `x`), the others released unseen.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(Self.input)
        let shape = try input.waitForStart()
        var source = input, (x, y, w, h) = (0, 0, shape.width, shape.height)
        if case .size(let sw, let sh, let gravity) = region, gravity.measure != nil, sw < shape.width || sh < shape.height {
            let image = try input.image()
            (w, h) = (min(sw, image.width), min(sh, image.height))
            (x, y) = gravity.offset(inner: (w, h), in: image)
            context.report(.object([("x", .number(Double(x))), ("y", .number(Double(y))),
                                    ("width", .number(Double(w))), ("height", .number(Double(h)))]))
            source = RowStream.whole(image)
        } else {
            (x, y, w, h) = try rectangle(width: shape.width, height: shape.height)
        }
        try Self.copy(source, x: x, y: y, width: w, height: h, into: output)
        return nil
    }

    /// Copies the `width × height` window at (`x`, `y`) of `input` to `output` (not yet begun), row
    /// by row; the whole image passes with its side data as it is.
    static func copy(_ input: RowStream, x: Int, y: Int, width w: Int, height h: Int, into output: RowStream) throws {
        let shape = try input.waitForStart()
        let whole = x == 0 && y == 0 && w == shape.width && h == shape.height
        try output.begin(ImageShape(width: w, height: h,
                                    metadata: whole ? shape.metadata : shape.metadata.applying(.geometry(.crop(x: x, y: y, width: w, height: h)))))
        try RowCopy.run(input, rows: y..<(y + h), into: output) { source, destination in
            _ = destination.update(fromContentsOf: UnsafeBufferPointer(rebasing: source[(x * 4)..<((x + w) * 4)]))
        }
    }

    /// The rectangle to keep in an image of this size.
    func rectangle(width: Int, height: Int) throws -> (Int, Int, Int, Int) {
        let image = (width: width, height: height)
        switch region {
        case .rect(let x, let y, let w, let h):
            guard x + w <= image.width, y + h <= image.height else {
                throw StageError("the crop rectangle \(x),\(y),\(w),\(h) reaches outside the \(image.width)x\(image.height) image")
            }
            return (x, y, w, h)
        case .size(let w, let h, let gravity):
            let cw = min(w, image.width), ch = min(h, image.height)
            let o = (gravity.anchor ?? .center).offset(inner: (cw, ch), outer: (image.width, image.height))
            return (o.x, o.y, cw, ch)
        }
    }
}
