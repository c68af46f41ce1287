import SumiKit

/// Space around the text block, in layout units.
struct EdgeInsets: Sendable, Hashable {
    var top: Double
    var right: Double
    var bottom: Double
    var left: Double

    init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }

    static let zero = EdgeInsets(top: 0, right: 0, bottom: 0, left: 0)
}

/// How a text layer's box and glyphs are painted.
struct BoxStyle: Sendable {
    var color: Color = .black
    var background: Color = .transparent
    var padding: EdgeInsets = .zero
    var border: Double = 0
    var borderColor: Color = .black
    /// Radius of the box's corners, in layout units.
    var cornerRadius: Double = 0
    /// Width of the outline drawn around (under) the glyphs, in layout units, and its colour.
    var stroke: Double = 0
    var strokeColor: Color = .black
    var shadow: TextShadow?

    /// How far the outline and the shadow reach past the glyphs' ink on each side.
    var inkSpread: EdgeInsets {
        var e = EdgeInsets(top: stroke, right: stroke, bottom: stroke, left: stroke)
        if let s = shadow {
            e.left = max(e.left, s.spread + stroke - s.dx)
            e.right = max(e.right, s.spread + stroke + s.dx)
            e.top = max(e.top, s.spread + stroke - s.dy)
            e.bottom = max(e.bottom, s.spread + stroke + s.dy)
        }
        return e
    }
}
