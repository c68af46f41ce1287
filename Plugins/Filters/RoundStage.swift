#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// `round` — rounds the corners (`radius` in pixels) or cuts a circle (`circle`: the radius is half
/// the shorter side, so a square becomes a circle and an oblong a pill); outside is transparent,
/// the edge antialiased (`CornerMask`).
public struct RoundStage: Stage, BandStage {
    static let radius = Parameter<Double?>("radius", min: 0, max: 65535,
                                           summary: "the corners' radius in pixels (larger than half the shorter side: that half)")
    static let circle = Parameter<Bool>("circle", default: false,
                                        summary: "true: a radius of half the shorter side (an avatar's circle from a square)")

    public static let descriptor = StageDescriptor(
        name: "round",
        summary: "Rounded corners or a circle, antialiased, transparent outside",
        inputs: [Port<Image>("in").spec],
        output: .image,
        effect: .pixels,
        parameters: [radius.spec, circle.spec])

    let radius: Double?

    public init(parameters: Parameters) throws {
        let radius = try parameters[Self.radius], circle = try parameters[Self.circle]
        switch (radius, circle) {
        case (.some, true): throw StageError.invalidParameter("circle", "give either radius or circle, not both")
        case (nil, false): throw StageError.invalidParameter("radius", "give radius (pixels) or circle=true")
        default: self.radius = radius
        }
    }

    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        let mask = CornerMask(width: shape.width, height: shape.height, radius: radius)
        return BandPlan(metadata: shape.metadata.applying(.pixels)) { input, output in
            for y in output.rows { mask.apply(row: y, input.row(y), into: output.row(y)) }
        }
    }
}

/// The coverage of an image with rounded corners: 1 inside, 0 outside, and at a corner's arc the
/// part of the pixel inside (from the distance of its centre to the arc: `radius − d + ½`, within
/// 0…1). Every premultiplied channel is scaled by it, so colour stays at or below alpha.
struct CornerMask: Sendable {
    let width: Int
    let height: Int
    let radius: Double

    /// `radius` nil: half the shorter side.
    init(width: Int, height: Int, radius: Double?) {
        self.width = width
        self.height = height
        let most = Double(min(width, height)) / 2
        self.radius = min(radius ?? most, most)
    }

    /// How much of pixel (x, y) is inside.
    func coverage(x: Int, y: Int) -> Double {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        // The nearest corner's arc centre; pixels beside the straight edges are inside.
        let ax = cx < radius ? radius : (cx > Double(width) - radius ? Double(width) - radius : cx)
        let ay = cy < radius ? radius : (cy > Double(height) - radius ? Double(height) - radius : cy)
        guard ax != cx, ay != cy else { return 1 }
        let distance = ((cx - ax) * (cx - ax) + (cy - ay) * (cy - ay)).squareRoot()
        return min(1, max(0, radius - distance + 0.5))
    }

    /// Row `y` of premultiplied RGBA pixels with the corners cut.
    func apply(row y: Int, _ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>) {
        _ = target.update(fromContentsOf: source)
        let span = Int(radius.rounded(.up))
        guard Double(y) + 0.5 < radius || Double(y) + 0.5 > Double(height) - radius else { return }
        let columns = Array(0..<min(span, width)) + Array(max(span, width - span)..<width)
        for x in columns {
            let cover = coverage(x: x, y: y)
            guard cover < 1 else { continue }
            for c in 0..<4 { target[x * 4 + c] = UInt8((Double(source[x * 4 + c]) * cover).rounded()) }
        }
    }
}
