import SumiKit

/// The content of a text layer: shaped glyphs (faces, glyph ids, positions in layout units) and the
/// box around them (padding, border, background). Nothing is rasterised until `rasterize` is called
/// with the final scale: glyph outlines are then scaled to that pixel size and anti-aliased, colour
/// emoji resampled from their bitmap strike, and box edges drawn with exact coverage.
///
/// The image is `ceil(size × scale + phase)` pixels a side: with a zero phase exactly the size the
/// `LayerContent` contract gives, with a fractional phase one pixel more where the shifted content
/// would otherwise lose its right or bottom edge.
public struct TextLayerContent: LayerContent {
    /// Larger rasterisations are refused: pixels a side, and pixels in all.
    public static let maxSide = 65_535
    public static let maxPixels = 500_000_000
    /// Larger font sizes in pixels (size × scale) are refused.
    public static let maxEmPixels = 1_000_000.0

    let layout: TextLayout
    let style: BoxStyle

    init(layout: TextLayout, style: BoxStyle) {
        self.layout = layout
        self.style = style
    }

    /// Text block plus padding plus border, in layout units.
    public var size: Size {
        let p = style.padding, b = style.border
        return Size(width: layout.width + p.left + p.right + 2 * b, height: layout.height + p.top + p.bottom + 2 * b)
    }

    /// The number of lines the text was laid out in.
    public var lineCount: Int { layout.lines.count }

    public func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        guard scaleX.isFinite, scaleY.isFinite, scaleX > 0, scaleY > 0 else {
            throw StageError("text layer: cannot draw at scale \(formatNumber(scaleX))x\(formatNumber(scaleY))")
        }
        let s = size
        let phaseX = phase.x.isFinite ? phase.x : 0, phaseY = phase.y.isFinite ? phase.y : 0
        // The sub-pixel phase widens the image by up to a pixel so the right and bottom edges are not cut.
        let wd = (s.width * scaleX + max(0, phaseX)).rounded(.up), hd = (s.height * scaleY + max(0, phaseY)).rounded(.up)
        guard wd.isFinite, hd.isFinite, wd <= Double(Self.maxSide), hd <= Double(Self.maxSide),
              wd * hd <= Double(Self.maxPixels) else {
            throw StageError("text layer would be \(formatNumber(wd))x\(formatNumber(hd)) pixels at scale "
                + "\(formatNumber(scaleX)); the limit is \(Self.maxSide) pixels a side and \(Self.maxPixels / 1_000_000) megapixels")
        }
        let em = layout.fontSize * max(scaleX, scaleY)
        guard em <= Self.maxEmPixels else {
            throw StageError("text layer: glyphs would be \(formatNumber(em.rounded())) pixels high at scale "
                + "\(formatNumber(scaleX)); the limit is \(formatNumber(Self.maxEmPixels))")
        }
        var canvas = Canvas(width: Int(wd), height: Int(hd))
        let b = style.border
        let outer = Rect(x: phaseX, y: phaseY, width: s.width * scaleX, height: s.height * scaleY)
        let inner = Rect(x: phaseX + b * scaleX, y: phaseY + b * scaleY,
                         width: max(0, (s.width - 2 * b) * scaleX), height: max(0, (s.height - 2 * b) * scaleY))
        canvas.fillBox(outer: outer, inner: inner, border: style.borderColor, background: style.background)
        if style.color.alpha > 0 {
            var rasterizer = GlyphRasterizer(scaleX: scaleX, scaleY: scaleY, fontSize: layout.fontSize)
            rasterizer.draw(layout.glyphs, originX: phaseX + (b + style.padding.left) * scaleX,
                            originY: phaseY + (b + style.padding.top) * scaleY, color: style.color, on: &canvas)
        }
        return canvas.image
    }
}
