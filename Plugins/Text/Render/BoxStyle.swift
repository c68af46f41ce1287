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
}
