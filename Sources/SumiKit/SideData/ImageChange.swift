/// What a stage did to an image, as far as the side data travelling with it is concerned.
///
/// Every kind of side data declares (in `SideDataKind.transform`) what becomes of its value under
/// each change; `SideData.applying(_:)` is the one place where those rules run. A stage states
/// the change it made; it never edits or clears another stage's entries itself.
public enum ImageChange: Sendable, Equatable {
    /// Pixel values changed; every pixel stayed where it was (a colour change, a caption drawn).
    case pixels
    /// Pixels moved or were resampled as `GeometryTransform` describes (crop, scale, flip, rotation).
    case geometry(GeometryTransform)
    /// The image was replaced by one whose relation to the old pixels is not described (a plugin
    /// that declares nothing): every entry that depends on pixel positions is dropped.
    case unknown
}

/// An affine map from the pixel coordinates of an image to those of the image made from it:
/// `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`, and the size of the new image.
public struct GeometryTransform: Sendable, Equatable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    /// The size of the image after the transform, in pixels.
    public var width: Int
    public var height: Int
    /// Whether every output pixel comes from an input pixel (false for a rotation by an arbitrary
    /// angle or for padding, which bring in new, possibly transparent, pixels).
    public var coversOutput: Bool

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double,
                width: Int, height: Int, coversOutput: Bool = true) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
        self.width = width; self.height = height; self.coversOutput = coversOutput
    }

    /// Keeps the rectangle `x, y, width, height` of the input.
    public static func crop(x: Int, y: Int, width: Int, height: Int) -> GeometryTransform {
        GeometryTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(-x), ty: Double(-y), width: width, height: height)
    }

    /// Resamples an image of `from` pixels to `to` pixels.
    public static func resize(fromWidth: Int, fromHeight: Int, toWidth: Int, toHeight: Int) -> GeometryTransform {
        GeometryTransform(a: fromWidth > 0 ? Double(toWidth) / Double(fromWidth) : 1, b: 0, c: 0,
                          d: fromHeight > 0 ? Double(toHeight) / Double(fromHeight) : 1, tx: 0, ty: 0,
                          width: toWidth, height: toHeight)
    }

    /// Mirrors an image of `width × height` left to right.
    public static func flipHorizontal(width: Int, height: Int) -> GeometryTransform {
        GeometryTransform(a: -1, b: 0, c: 0, d: 1, tx: Double(width), ty: 0, width: width, height: height)
    }

    /// Mirrors an image of `width × height` top to bottom.
    public static func flipVertical(width: Int, height: Int) -> GeometryTransform {
        GeometryTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: Double(height), width: width, height: height)
    }

    /// Turns an image of `width × height` by `quarterTurns` × 90° clockwise.
    public static func rotate(quarterTurns: Int, width: Int, height: Int) -> GeometryTransform {
        let w = Double(width), h = Double(height)
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: return GeometryTransform(a: 0, b: -1, c: 1, d: 0, tx: h, ty: 0, width: height, height: width)
        case 2: return GeometryTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h, width: width, height: height)
        case 3: return GeometryTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: w, width: height, height: width)
        default: return GeometryTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, width: width, height: height)
        }
    }

    /// This transform followed by `next`.
    public func then(_ next: GeometryTransform) -> GeometryTransform {
        GeometryTransform(a: next.a * a + next.b * c, b: next.a * b + next.b * d,
                          c: next.c * a + next.d * c, d: next.c * b + next.d * d,
                          tx: next.a * tx + next.b * ty + next.tx, ty: next.c * tx + next.d * ty + next.ty,
                          width: next.width, height: next.height, coversOutput: coversOutput && next.coversOutput)
    }

    /// Where a point of the input lands.
    public func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + tx, y: c * p.x + d * p.y + ty)
    }

    /// Whether right angles stay axis-aligned (no rotation by other than a multiple of 90°).
    public var keepsAxes: Bool { (b == 0 && c == 0) || (a == 0 && d == 0) }

    /// The image of a rectangle, clipped to the output; nil when nothing of it remains visible, or
    /// when the transform does not keep axes (the image of a rectangle is then no rectangle).
    public func apply(_ rect: Rect) -> Rect? {
        guard keepsAxes else { return nil }
        let p = apply(Point(x: rect.x, y: rect.y)), q = apply(Point(x: rect.maxX, y: rect.maxY))
        let x0 = max(0, min(p.x, q.x)), y0 = max(0, min(p.y, q.y))
        let x1 = min(Double(width), max(p.x, q.x)), y1 = min(Double(height), max(p.y, q.y))
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
