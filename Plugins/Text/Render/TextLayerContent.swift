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
    /// How far glyph ink reaches past the box on each side, in layout units: the layer grows by it so
    /// no ink is cut at any padding (the box then sits that far in from the layer's top-left).
    let inkOverflow: EdgeInsets
    /// Each line's ink box, from the text block's top-left.
    private let lineInk: [Rect?]

    init(layout: TextLayout, style: BoxStyle) {
        self.layout = layout
        self.style = style
        let lineInk = layout.lineInkBounds()
        self.lineInk = lineInk
        let p = style.padding, b = style.border
        let box = Size(width: layout.width + p.left + p.right + 2 * b, height: layout.height + p.top + p.bottom + 2 * b)
        var overflow = EdgeInsets.zero
        // Outline and shadow reach past the glyphs by `spread`.
        let spread = style.inkSpread
        for case let ink? in lineInk {
            overflow.left = max(overflow.left, -(b + p.left + ink.x - spread.left))
            overflow.top = max(overflow.top, -(b + p.top + ink.y - spread.top))
            overflow.right = max(overflow.right, b + p.left + ink.maxX + spread.right - box.width)
            overflow.bottom = max(overflow.bottom, b + p.top + ink.maxY + spread.bottom - box.height)
        }
        inkOverflow = overflow
    }

    /// Text block plus padding plus border, in layout units.
    var boxSize: Size {
        let p = style.padding, b = style.border
        return Size(width: layout.width + p.left + p.right + 2 * b, height: layout.height + p.top + p.bottom + 2 * b)
    }

    /// The box plus any glyph ink that reaches outside it, in layout units.
    public var size: Size {
        let box = boxSize, o = inkOverflow
        return Size(width: box.width + o.left + o.right, height: box.height + o.top + o.bottom)
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
        let b = style.border, box = boxSize
        let boxX = phaseX + inkOverflow.left * scaleX, boxY = phaseY + inkOverflow.top * scaleY
        let outer = Rect(x: boxX, y: boxY, width: box.width * scaleX, height: box.height * scaleY)
        let inner = Rect(x: boxX + b * scaleX, y: boxY + b * scaleY,
                         width: max(0, (box.width - 2 * b) * scaleX), height: max(0, (box.height - 2 * b) * scaleY))
        if style.cornerRadius > 0 {
            canvas.fillRoundedBox(outer: outer, inner: inner, radius: style.cornerRadius * min(scaleX, scaleY),
                                  border: style.borderColor, background: style.background)
        } else {
            canvas.fillBox(outer: outer, inner: inner, border: style.borderColor, background: style.background)
        }
        let originX = boxX + (b + style.padding.left) * scaleX, originY = boxY + (b + style.padding.top) * scaleY
        let strokeRadius = style.stroke * min(scaleX, scaleY)
        // Under the glyphs: the shadow (of the outlined glyphs), then the outline, then the fill.
        if let shadow = style.shadow, shadow.color.alpha > 0 {
            var layer = Canvas(width: canvas.width, height: canvas.height)
            var opaque = shadow.color
            opaque.alpha = 255
            drawGlyphs(on: &layer, originX: originX + shadow.dx * scaleX, originY: originY + shadow.dy * scaleY,
                       scaleX: scaleX, scaleY: scaleY, imageHeight: hd, color: opaque, strokeRadius: strokeRadius,
                       withFill: true)
            layer.blur(sigma: shadow.blur * min(scaleX, scaleY))
            canvas.draw(image: layer.image, x: 0, y: 0, opacity: shadow.color.alpha)
        }
        if strokeRadius > 0 && style.strokeColor.alpha > 0 {
            drawGlyphs(on: &canvas, originX: originX, originY: originY, scaleX: scaleX, scaleY: scaleY, imageHeight: hd,
                       color: style.strokeColor, strokeRadius: strokeRadius, withFill: false)
        }
        if style.color.alpha > 0 {
            drawGlyphs(on: &canvas, originX: originX, originY: originY, scaleX: scaleX, scaleY: scaleY, imageHeight: hd,
                       color: style.color, strokeRadius: 0, withFill: false)
        }
        return canvas.image
    }

    /// Draws every line's glyphs (grown by `strokeRadius` when above zero; with `withFill`, the
    /// plain glyphs too, for a shadow's silhouette), each line's baseline on a whole pixel.
    private func drawGlyphs(on canvas: inout Canvas, originX: Double, originY: Double, scaleX: Double, scaleY: Double,
                            imageHeight: Double, color: Color, strokeRadius: Double, withFill: Bool) {
        var rasterizer = GlyphRasterizer(scaleX: scaleX, scaleY: scaleY, fontSize: layout.fontSize)
        var strokes = GlyphRasterizer(scaleX: scaleX, scaleY: scaleY, fontSize: layout.fontSize)
        strokes.strokeRadius = strokeRadius
        for (index, line) in layout.lines.enumerated() {
            let shift = baselineShift(line: index, originY: originY, scaleY: scaleY, imageHeight: imageHeight)
            let glyphs = Array(layout.glyphs[line.glyphRange])
            if strokeRadius > 0 {
                strokes.draw(glyphs, originX: originX, originY: originY + shift, color: color, on: &canvas)
            }
            if strokeRadius == 0 || withFill {
                rasterizer.draw(glyphs, originX: originX, originY: originY + shift, color: color, on: &canvas)
            }
        }
    }

    /// How far to move a line so its baseline falls on a whole pixel (sharper horizontal stems at
    /// small sizes): to the nearest pixel row, or the other one when that would cut the line's ink
    /// at the image's top or bottom edge.
    private func baselineShift(line index: Int, originY: Double, scaleY: Double, imageHeight: Double) -> Double {
        guard !layout.isVertical else { return 0 }
        let y = originY + layout.lines[index].baseline * scaleY
        let nearest = y.rounded() - y
        guard let ink = lineInk[index] else { return nearest }
        let spread = style.inkSpread
        let top = originY + (ink.y - spread.top) * scaleY, bottom = originY + (ink.maxY + spread.bottom) * scaleY
        for shift in [nearest, y.rounded(.up) - y, y.rounded(.down) - y]
        where top + shift >= -1e-9 && bottom + shift <= imageHeight + 1e-9 {
            return shift
        }
        return 0
    }
}
