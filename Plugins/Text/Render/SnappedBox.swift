import SumiKit

/// A caption box drawn upright or turned by a multiple of 90°, in pixels, with its edges on whole
/// pixels as browsers snap boxes: each outer edge to the nearest pixel (or the other way when that
/// would push it out of a canvas it was inside), and the border "snapped as a border width" (CSS
/// Values 4: widths under a pixel become one pixel, wider ones are rounded down to whole pixels). A
/// 3 px border then covers exactly 3 pixel columns wherever the box is placed, as the baseline of
/// its text lands on a whole pixel row.
struct SnappedBox: Equatable {
    /// The box and the rectangle inside its border, in pixels.
    var outer: Rect
    var inner: Rect
    /// How far the outer box's top-left corner moved; the text inside moves with it.
    var shift: Point

    /// Snaps the box `outer` (layout units) with a border of `border` layout units drawn through
    /// `transform` onto a canvas of `width × height` pixels; `nil` unless `transform` keeps axes on
    /// axes (no turn, a half or a quarter turn, any scale).
    init?(outer box: Rect, border: Double, through transform: AffineTransform, width: Int, height: Int) {
        let keepsAxes = (transform.b == 0 && transform.c == 0) || (transform.a == 0 && transform.d == 0)
        guard keepsAxes, transform.isFinite else { return nil }
        let raw = transform.boundingBox(of: box)
        // The border's width in pixels across vertical and across horizontal edges.
        let borderX = Self.borderWidth(border * (abs(transform.a) + abs(transform.b)))
        let borderY = Self.borderWidth(border * (abs(transform.c) + abs(transform.d)))
        let x = Self.edges(raw.x, raw.maxX, limit: Double(width))
        let y = Self.edges(raw.y, raw.maxY, limit: Double(height))
        outer = Rect(x: x.lowerBound, y: y.lowerBound, width: x.upperBound - x.lowerBound, height: y.upperBound - y.lowerBound)
        inner = Rect(x: outer.x + borderX, y: outer.y + borderY,
                     width: max(0, outer.width - 2 * borderX), height: max(0, outer.height - 2 * borderY))
        shift = Point(x: outer.x - raw.x, y: outer.y - raw.y)
    }

    /// CSS "snap as a border width", in pixels.
    static func borderWidth(_ width: Double) -> Double {
        guard width > 0, width.isFinite else { return 0 }
        return width < 1 ? 1 : (width + 1e-9).rounded(.down)
    }

    /// An interval's ends on whole pixels: each to the nearest, the far end back inside `limit`
    /// when it was inside; an interval under half a pixel keeps its ends (it would vanish).
    static func edges(_ low: Double, _ high: Double, limit: Double) -> ClosedRange<Double> {
        let a = low.rounded()
        var b = high.rounded()
        if b > limit && high <= limit { b = high.rounded(.down) }
        return b > a ? a...b : low...max(low, high)
    }
}
