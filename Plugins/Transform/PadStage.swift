import SumiKit

/// `pad` — adds a border: to a `size` (the image placed by `gravity`), or by `margin`s, in `color`.
public struct PadStage: Stage, RowStage {
    static let size = Parameter<Size?>("size", summary: "the size to grow to, \"WxH\" (a side already larger is left as it is: pad never crops)")
    static let gravity = Parameter<Gravity>("gravity", default: .center, summary: "with size: where the image sits")
    static let margin = Parameter<[Int]?>("margin", min: 0, max: 65535,
                                          summary: "pixels to add, as CSS: \"all\", \"vertical,horizontal\", \"top,horizontal,bottom\" or \"top,right,bottom,left\"")
    static let color = Parameter<Color>("color", default: .transparent, summary: "the colour of the added pixels")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "pad",
        summary: "Add a border: grow to a size (placed by gravity) or by margins, in a colour",
        inputs: [input.spec],
        output: .image,
        effect: .geometry,
        parameters: [size.spec, gravity.spec, margin.spec, color.spec])

    enum Amount: Sendable {
        case size(width: Int, height: Int, gravity: Gravity)
        case margins(top: Int, right: Int, bottom: Int, left: Int)
    }

    let amount: Amount
    let color: Color

    public init(parameters: Parameters) throws {
        color = try parameters[Self.color]
        let size = try parameters[Self.size]
        let margin = try parameters[Self.margin]
        if size != nil && margin != nil { throw StageError.invalidParameter("margin", "give either size or margin, not both") }
        if let s = size {
            guard s.width == s.width.rounded(), s.height == s.height.rounded(), s.width >= 1, s.height >= 1,
                  s.width <= 65535, s.height <= 65535 else {
                throw StageError.invalidParameter("size", "expected whole pixels from 1 to 65535, got \(s)")
            }
            amount = .size(width: Int(s.width), height: Int(s.height), gravity: try parameters[Self.gravity])
        } else if let m = margin {
            if parameters.isGiven(Self.gravity) { throw StageError.invalidParameter("gravity", "gravity places the image with size; margins are exact") }
            switch m.count {
            case 1: amount = .margins(top: m[0], right: m[0], bottom: m[0], left: m[0])
            case 2: amount = .margins(top: m[0], right: m[1], bottom: m[0], left: m[1])
            case 3: amount = .margins(top: m[0], right: m[1], bottom: m[2], left: m[1])
            case 4: amount = .margins(top: m[0], right: m[1], bottom: m[2], left: m[3])
            default: throw StageError.invalidParameter("margin", "expected 1 to 4 numbers, got \(m.count)")
            }
        } else {
            throw StageError.invalidParameter("size", "give size (with gravity), or margin")
        }
    }

    /// The input is read as rows.
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    /// The streamed path: rows of the colour above and below, each source row between its side
    /// borders, band by band.
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(Self.input)
        let shape = try input.waitForStart()
        let (width, height, x, y) = try layout(width: shape.width, height: shape.height, limits: context.options.limits)
        // Nothing to add: the image passes as it is, side data included (as the whole path returns it).
        let unchanged = width == shape.width && height == shape.height
        try output.begin(ImageShape(width: width, height: height,
                                    metadata: unchanged ? shape.metadata : metadata(shape.metadata, width: width, height: height, x: x, y: y)))
        let (r, g, b, a) = color.premultiplied
        let border = [UInt8]((0..<width).flatMap { _ in [r, g, b, a] })
        let sourceBytes = shape.width * 4
        try output.mapBands(from: input, inputRows: { $0.lowerBound - y ..< $0.upperBound - y }) { source, target in
            for row in target.rows {
                let destination = target.row(row)
                guard source.rows.contains(row - y) else {
                    _ = destination.update(fromContentsOf: border)
                    continue
                }
                _ = UnsafeMutableBufferPointer(rebasing: destination[0..<(x * 4)]).update(fromContentsOf: border[0..<(x * 4)])
                _ = UnsafeMutableBufferPointer(rebasing: destination[(x * 4)..<(x * 4 + sourceBytes)])
                    .update(fromContentsOf: source.row(row - y))
                _ = UnsafeMutableBufferPointer(rebasing: destination[(x * 4 + sourceBytes)...])
                    .update(fromContentsOf: border[(x * 4 + sourceBytes)...])
            }
        }
        return nil
    }

    /// The padded size and where the image sits in it, for an image of this size.
    func layout(width imageWidth: Int, height imageHeight: Int, limits: PixelLimits) throws -> (width: Int, height: Int, x: Int, y: Int) {
        let width: Int, height: Int, x: Int, y: Int
        switch amount {
        case .size(let w, let h, let gravity):
            width = max(w, imageWidth); height = max(h, imageHeight)
            (x, y) = gravity.offset(inner: (imageWidth, imageHeight), outer: (width, height))
        case .margins(let top, let right, let bottom, let left):
            width = imageWidth + left + right; height = imageHeight + top + bottom
            x = left; y = top
        }
        guard width <= 65535, height <= 65535, width * height <= 1 << 30 else {
            throw StageError.limit("padding \(imageWidth)x\(imageHeight) gives \(width)x\(height) pixels, more than the limit of 65535 a side and 2^30 in all")
        }
        try limits.check(width: width, height: height, making: "padding \(imageWidth)x\(imageHeight)")
        return (width, height, x, y)
    }

    /// The padded image's side data.
    func metadata(_ source: ImageMetadata, width: Int, height: Int, x: Int, y: Int) -> ImageMetadata {
        let moved = GeometryTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(x), ty: Double(y),
                                      width: width, height: height, coversOutput: false)
        var result = source.applying(.geometry(moved))
        result.knownOpaque = source.knownOpaque && color.alpha == 255
        return result
    }
}
