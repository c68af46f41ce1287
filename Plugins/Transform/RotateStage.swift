import Glibc
import SumiKit

/// `rotate` — turns an image clockwise: multiples of 90° move pixels exactly; any other angle is
/// resampled (bilinear) into the box that holds the whole result, on `background`.
public struct RotateStage: Stage {
    static let angle = Parameter<Double>(required: "angle", min: -3600, max: 3600,
                                         summary: "degrees clockwise (negative: counter-clockwise)")
    static let background = Parameter<Color>("background", default: .transparent,
                                             summary: "what fills the corners of an angle that is not a multiple of 90")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "rotate",
        summary: "Turn an image clockwise (90/180/270 exactly; any angle onto a background)",
        inputs: [input.spec],
        output: .image,
        effect: .geometry,
        parameters: [angle.spec, background.spec])

    /// The angle in [0, 360).
    let degrees: Double
    let background: Color

    public init(parameters: Parameters) throws {
        let angle = try parameters[Self.angle]
        let normalised = angle.truncatingRemainder(dividingBy: 360)
        degrees = normalised < 0 ? normalised + 360 : normalised
        background = try parameters[Self.background]
    }

    /// The number of quarter turns when the angle is a multiple of 90°.
    var quarterTurns: Int? {
        let q = degrees / 90
        return q == q.rounded() ? Int(q) % 4 : nil
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image(Self.input)
        var out: Image
        if let turns = quarterTurns {
            if turns == 0 { return .image(image) }
            if turns % 2 == 1 {
                try context.options.limits.check(width: image.height, height: image.width, making: "turning \(image.width)x\(image.height)")
            }
            out = PixelGeometry.rotateQuarterTurns(image, turns)
            out.metadata = image.metadata.applying(.geometry(.rotate(quarterTurns: turns, width: image.width, height: image.height)))
            return .image(out)
        } else {
            let size = PixelGeometry.rotatedSize(width: image.width, height: image.height, degrees: degrees)
            guard size.width <= 65535, size.height <= 65535, size.width * size.height <= 1 << 30 else {
                throw StageError.limit("turning \(image.width)x\(image.height) by \(degrees)° gives \(size.width)x\(size.height) pixels, more than the limit of 65535 a side and 2^30 in all")
            }
            try context.options.limits.check(width: size.width, height: size.height, making: "turning \(image.width)x\(image.height) by \(formatNumber(degrees))°")
            out = PixelGeometry.rotate(image, degrees: degrees, background: background)
        }
        // Clockwise about the centre, into the box that holds the whole result.
        let radians = degrees * .pi / 180, cosine = cos(radians), sine = sin(radians)
        let cx = Double(image.width) / 2, cy = Double(image.height) / 2
        let ox = Double(out.width) / 2, oy = Double(out.height) / 2
        let turned = GeometryTransform(a: cosine, b: -sine, c: sine, d: cosine,
                                       tx: ox - cosine * cx + sine * cy, ty: oy - sine * cx - cosine * cy,
                                       width: out.width, height: out.height, coversOutput: false)
        out.metadata = image.metadata.applying(.geometry(turned))
        out.metadata.knownOpaque = image.metadata.knownOpaque && background.alpha == 255
        return .image(out)
    }
}
