import SumiKit

/// `pad` — adds a border: to a `size` (the image placed by `gravity`), or by `margin`s, in `color`.
public struct PadStage: Stage {
    static let size = Parameter<Size?>("size", summary: "the size to grow to, \"WxH\" (a side already larger is left as it is: pad never crops)")
    static let gravity = Parameter<Gravity>("gravity", default: .center, summary: "with size: where the image sits")
    static let margin = Parameter<[Int]?>("margin", min: 0, max: 65535,
                                          summary: "pixels to add, as CSS: \"all\", \"vertical,horizontal\", \"top,horizontal,bottom\" or \"top,right,bottom,left\"")
    static let color = Parameter<Color>("color", default: .transparent, summary: "the colour of the added pixels")

    public static let descriptor = StageDescriptor(
        name: "pad",
        summary: "Add a border: grow to a size (placed by gravity) or by margins, in a colour",
        inputs: [PortSpec(name: "in", accepts: .image)],
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
            if parameters.isGiven("gravity") { throw StageError.invalidParameter("gravity", "gravity places the image with size; margins are exact") }
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

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image("in")
        let width: Int, height: Int, x: Int, y: Int
        switch amount {
        case .size(let w, let h, let gravity):
            width = max(w, image.width); height = max(h, image.height)
            (x, y) = gravity.offset(inner: (image.width, image.height), outer: (width, height))
        case .margins(let top, let right, let bottom, let left):
            width = image.width + left + right; height = image.height + top + bottom
            x = left; y = top
        }
        guard width <= 65535, height <= 65535, width * height <= 1 << 30 else {
            throw StageError("padding \(image.width)x\(image.height) gives \(width)x\(height) pixels, more than the limit of 65535 a side and 2^30 in all")
        }
        if width == image.width && height == image.height { return .image(image) }
        var out = PixelGeometry.pad(image, width: width, height: height, x: x, y: y, color: color)
        let moved = GeometryTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(x), ty: Double(y),
                                      width: width, height: height, coversOutput: false)
        out.metadata = image.metadata.applying(.geometry(moved))
        out.metadata.knownOpaque = image.metadata.knownOpaque && color.alpha == 255
        return .image(out)
    }
}
