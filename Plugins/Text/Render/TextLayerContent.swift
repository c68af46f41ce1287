import SumiKit

/// The content of a text layer: shaped glyphs (faces, glyph ids, positions in layout units) and the
/// box around them (padding, border, background). Nothing is rasterised until `rasterize` is called
/// with the final scale: glyph outlines are then scaled to that pixel size and anti-aliased, colour
/// emoji resampled from their bitmap strike, and box edges drawn with exact coverage — on whole
/// pixels when the box is upright or turned by quarter turns (`SnappedBox`).
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
        try checkLimits(width: wd, height: hd, scale: max(scaleX, scaleY))
        return draw(through: AffineTransform(a: scaleX, b: 0, c: 0, d: scaleY, tx: phaseX, ty: phaseY),
                    width: Int(wd), height: Int(hd))
    }

    /// Draws the layer turned (or sheared) by `transform`: glyph outlines, the box and the shadow
    /// are all transformed as vectors and rasterised once at the final pixel grid; only colour emoji,
    /// which are bitmaps, are resampled (once, from their strike).
    public func rasterize(transform: AffineTransform, width: Int, height: Int) throws -> Image {
        guard transform.isFinite, transform.inverted != nil else {
            throw StageError("text layer: cannot draw through the transform \(transform)")
        }
        try checkLimits(width: Double(width), height: Double(height), scale: transform.scaleRange.max)
        return draw(through: transform, width: width, height: height)
    }

    /// Refuses images and glyphs too large to draw.
    private func checkLimits(width wd: Double, height hd: Double, scale: Double) throws {
        guard wd.isFinite, hd.isFinite, wd <= Double(Self.maxSide), hd <= Double(Self.maxSide),
              wd * hd <= Double(Self.maxPixels) else {
            throw StageError("text layer would be \(formatNumber(wd))x\(formatNumber(hd)) pixels at scale "
                + "\(formatNumber(scale)); the limit is \(Self.maxSide) pixels a side and \(Self.maxPixels / 1_000_000) megapixels")
        }
        let em = layout.fontSize * scale
        guard em <= Self.maxEmPixels else {
            throw StageError("text layer: glyphs would be \(formatNumber(em.rounded())) pixels high at scale "
                + "\(formatNumber(scale)); the limit is \(formatNumber(Self.maxEmPixels))")
        }
    }

    /// Draws box, shadow, outline and fill through `transform` (layout units → pixels).
    private func draw(through transform: AffineTransform, width: Int, height: Int) -> Image {
        var canvas = Canvas(width: width, height: height)
        let b = style.border, box = boxSize
        // Lengths (outline, blur, corner radius) scale by the least scale, as before for unequal scales.
        let lengthScale = transform.scaleRange.min
        let outer = Rect(x: inkOverflow.left, y: inkOverflow.top, width: box.width, height: box.height)
        var origin = transform.apply(Point(x: outer.x + b + style.padding.left, y: outer.y + b + style.padding.top))
        let hasBox = style.background.alpha > 0 || (b > 0 && style.borderColor.alpha > 0)
        if let snapped = SnappedBox(outer: outer, border: b, through: transform, width: width, height: height) {
            // Upright, or turned by quarters: edges on whole pixels, the text moved with the box.
            if style.cornerRadius > 0 {
                canvas.fillRoundedBox(outer: snapped.outer, inner: snapped.inner, radius: style.cornerRadius * lengthScale,
                                      border: style.borderColor, background: style.background)
            } else {
                canvas.fillBox(outer: snapped.outer, inner: snapped.inner, border: style.borderColor, background: style.background)
            }
            if hasBox { origin = Point(x: origin.x + snapped.shift.x, y: origin.y + snapped.shift.y) }
        } else {
            let inner = Rect(x: outer.x + b, y: outer.y + b, width: max(0, box.width - 2 * b), height: max(0, box.height - 2 * b))
            canvas.fillBox(outer: outer, inner: inner, radius: style.cornerRadius, through: transform,
                           border: style.borderColor, background: style.background)
        }
        let linear = AffineTransform(a: transform.a, b: transform.b, c: transform.c, d: transform.d, tx: 0, ty: 0)
        let strokeRadius = style.stroke * lengthScale
        // Under the glyphs: the shadow (of the outlined glyphs), then the outline, then the fill.
        // Each is one coverage mask coloured once, so overlapping glyphs do not darken a
        // translucent colour.
        if let shadow = style.shadow, shadow.color.alpha > 0 {
            let offset = linear.apply(Point(x: shadow.dx, y: shadow.dy))
            let at = Point(x: origin.x + offset.x, y: origin.y + offset.y)
            var mask = CoverageMask(width: canvas.width, height: canvas.height)
            if strokeRadius > 0 { addGlyphs(into: &mask, origin: at, linear: linear, strokeRadius: strokeRadius) }
            addGlyphs(into: &mask, origin: at, linear: linear, strokeRadius: 0)
            // A colour glyph's shadow is its silhouette in the shadow's colour, not a copy of its colours.
            if layout.glyphs.contains(where: { $0.face.hasColorBitmaps }) {
                var colored = Canvas(width: canvas.width, height: canvas.height)
                drawColorGlyphs(on: &colored, origin: at, linear: linear, opacity: 255)
                mask.add(alphaOf: colored)
            }
            mask.blur(sigma: shadow.blur * lengthScale)
            canvas.draw(mask, color: shadow.color)
        }
        if strokeRadius > 0 && style.strokeColor.alpha > 0 {
            var mask = CoverageMask(width: canvas.width, height: canvas.height)
            addGlyphs(into: &mask, origin: origin, linear: linear, strokeRadius: strokeRadius)
            canvas.draw(mask, color: style.strokeColor)
        }
        if style.color.alpha > 0 {
            var mask = CoverageMask(width: canvas.width, height: canvas.height)
            addGlyphs(into: &mask, origin: origin, linear: linear, strokeRadius: 0)
            canvas.draw(mask, color: style.color)
            drawColorGlyphs(on: &canvas, origin: origin, linear: linear, opacity: style.color.alpha)
        }
        return canvas.image
    }

    /// Adds every line's outline glyphs (grown by `strokeRadius` when above zero) into `mask`, the
    /// text block's top-left at pixel `origin` and layout vectors mapped by `linear`, each line's
    /// baseline on a whole pixel.
    private func addGlyphs(into mask: inout CoverageMask, origin: Point, linear: AffineTransform, strokeRadius: Double) {
        var rasterizer = GlyphRasterizer(linear: linear, fontSize: layout.fontSize)
        rasterizer.strokeRadius = strokeRadius
        for (index, line) in layout.lines.enumerated() {
            let shift = baselineShift(line: index, origin: origin, linear: linear, extent: (mask.width, mask.height))
            rasterizer.addOutlines(Array(layout.glyphs[line.glyphRange]), origin: Point(x: origin.x + shift.x, y: origin.y + shift.y),
                                   into: &mask)
        }
    }

    /// Draws every line's colour glyphs onto `canvas` at `opacity`, placed as `addGlyphs` places outlines.
    private func drawColorGlyphs(on canvas: inout Canvas, origin: Point, linear: AffineTransform, opacity: UInt8) {
        var rasterizer = GlyphRasterizer(linear: linear, fontSize: layout.fontSize)
        for (index, line) in layout.lines.enumerated() {
            let shift = baselineShift(line: index, origin: origin, linear: linear, extent: (canvas.width, canvas.height))
            rasterizer.drawColorGlyphs(Array(layout.glyphs[line.glyphRange]), origin: Point(x: origin.x + shift.x, y: origin.y + shift.y),
                                       opacity: opacity, on: &canvas)
        }
    }

    /// How far to move a line (in pixels) so its baseline falls on a whole pixel (sharper stems at
    /// small sizes): to the nearest pixel row — or column, when a quarter turn makes the baseline
    /// vertical — or the other one when that would cut the line's ink at the image's edge. Lines
    /// turned by other angles are not moved.
    private func baselineShift(line index: Int, origin: Point, linear: AffineTransform, extent size: (width: Int, height: Int)) -> Point {
        guard !layout.isVertical else { return Point(x: 0, y: 0) }
        // The pixel axis the layout's y axis runs along, and the pixels per layout unit along it.
        let alongX: Bool, k: Double
        if linear.b == 0 && linear.c == 0 {
            (alongX, k) = (false, linear.d)
        } else if linear.a == 0 && linear.d == 0 {
            (alongX, k) = (true, linear.b)
        } else {
            return Point(x: 0, y: 0)
        }
        let start = alongX ? origin.x : origin.y, extent = Double(alongX ? size.width : size.height)
        func shifted(_ v: Double) -> Point { alongX ? Point(x: v, y: 0) : Point(x: 0, y: v) }
        let y = start + layout.lines[index].baseline * k
        let nearest = y.rounded() - y
        guard let ink = lineInk[index] else { return shifted(nearest) }
        let spread = style.inkSpread
        let a = start + (ink.y - spread.top) * k, b = start + (ink.maxY + spread.bottom) * k
        let top = min(a, b), bottom = max(a, b)
        for shift in [nearest, y.rounded(.up) - y, y.rounded(.down) - y]
        where top + shift >= -1e-9 && bottom + shift <= extent + 1e-9 {
            return shifted(shift)
        }
        return Point(x: 0, y: 0)
    }
}
