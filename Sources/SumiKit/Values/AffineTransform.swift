#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An affine map of the plane: `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty` (+y down, so a positive
/// angle turns clockwise on screen). Layers use it to map layout units to pixels when they are drawn
/// turned (`Placement.rotation`); `GeometryTransform` is the related map between whole images.
public struct AffineTransform: Sendable, Hashable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Scales by `x` horizontally and `y` vertically.
    public static func scale(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Moves by (`x`, `y`).
    public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// Turns by `degrees` clockwise (on a +y-down plane) about the origin. Multiples of 90° are
    /// exact (no `sin`/`cos` rounding), so a quarter turn maps pixel edges onto pixel edges.
    public static func rotation(degrees: Double) -> AffineTransform {
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        let (cosine, sine): (Double, Double)
        switch turned {
        case 0: (cosine, sine) = (1, 0)
        case 90, -270: (cosine, sine) = (0, 1)
        case 180, -180: (cosine, sine) = (-1, 0)
        case 270, -90: (cosine, sine) = (0, -1)
        default:
            let r = turned * .pi / 180
            (cosine, sine) = (cos(r), sin(r))
        }
        return AffineTransform(a: cosine, b: -sine, c: sine, d: cosine, tx: 0, ty: 0)
    }

    /// This map followed by `next`.
    public func then(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(a: next.a * a + next.b * c, b: next.a * b + next.b * d,
                        c: next.c * a + next.d * c, d: next.c * b + next.d * d,
                        tx: next.a * tx + next.b * ty + next.tx, ty: next.c * tx + next.d * ty + next.ty)
    }

    /// Where a point lands.
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + tx, y: c * p.x + d * p.y + ty)
    }

    /// Where a vector (a difference of points) lands: the linear part only.
    public func applyLinear(_ v: Point) -> Point {
        Point(x: a * v.x + b * v.y, y: c * v.x + d * v.y)
    }

    /// The inverse map, or nil when the map flattens the plane (or is not finite).
    public var inverted: AffineTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite, isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ib * ty), ty: -(ic * tx + id * ty))
    }

    /// Whether every coefficient is finite.
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// Whether the map only scales and moves (axes stay axes, in the same directions).
    public var isScaleAndTranslation: Bool { b == 0 && c == 0 }

    /// The least and the most any length grows (the linear part's singular values): for a scale by
    /// (`sx`, `sy`) and a turn, `min(sx, sy)` and `max(sx, sy)`.
    public var scaleRange: (min: Double, max: Double) {
        let sum = a * a + b * b + c * c + d * d, det = a * d - b * c
        let spread = max(0, sum * sum - 4 * det * det).squareRoot()
        return (max(0, (sum - spread) / 2).squareRoot(), ((sum + spread) / 2).squareRoot())
    }

    /// The smallest bounding rectangle of the image of `rect`.
    public func boundingBox(of rect: Rect) -> Rect {
        let corners = [Point(x: rect.x, y: rect.y), Point(x: rect.maxX, y: rect.y),
                       Point(x: rect.x, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY)].map(apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
        return Rect(x: x0, y: y0, width: (xs.max() ?? 0) - x0, height: (ys.max() ?? 0) - y0)
    }

    public var description: String {
        "[\([a, b, tx].map(formatNumber).joined(separator: " ")); \([c, d, ty].map(formatNumber).joined(separator: " "))]"
    }
}
