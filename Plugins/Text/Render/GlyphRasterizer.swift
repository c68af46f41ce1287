import SumiKit

/// Draws a layout's glyphs onto a canvas through one linear map (a scale, possibly turned): outlines
/// transformed to the final pixel grid and anti-aliased by FreeType (positions kept to a quarter
/// pixel) into a coverage mask that is coloured once, colour bitmaps resampled from their strike to
/// the final size. Each distinct glyph is drawn once and reused.
struct GlyphRasterizer {
    /// Layout units → pixels (its translation is unused: positions come with `origin`).
    let linear: AffineTransform
    let fontSize: Double
    /// When above zero, outline glyphs are drawn grown by this many pixels (a caption's outline);
    /// colour glyphs are then skipped.
    var strokeRadius: Double = 0

    private struct Key: Hashable {
        var face: ObjectIdentifier
        var glyph: UInt32
        var subpixel: Int
        var rotated: Bool
    }
    private var outlines: [Key: GlyphBitmap?] = [:]
    private var colorGlyphs: [Key: ColorGlyph?] = [:]

    /// Whether the map only scales (by positive factors): colour glyphs are then stretched, not turned.
    private let upright: Bool

    init(linear: AffineTransform, fontSize: Double) {
        self.linear = linear
        self.fontSize = fontSize
        // A half turn keeps axes on axes too, but reversed: its colour glyphs are drawn turned.
        self.upright = linear.isScaleAndTranslation && linear.a > 0 && linear.d > 0
    }

    /// Adds the coverage of `glyphs`' outlines into `mask`, with the text block's origin at pixel
    /// `origin`; colour glyphs are left to `drawColorGlyphs`.
    mutating func addOutlines(_ glyphs: [PlacedGlyph], origin: Point, into mask: inout CoverageMask) {
        for (g, px, py) in visible(glyphs, origin: origin, width: mask.width, height: mask.height) where !g.face.hasColorBitmaps {
            addOutline(g, px: px, py: py, into: &mask)
        }
    }

    /// Composites `glyphs`' colour glyphs (emoji bitmaps) onto `canvas` at `opacity`; none when
    /// drawing outlines grown by a stroke.
    mutating func drawColorGlyphs(_ glyphs: [PlacedGlyph], origin: Point, opacity: UInt8, on canvas: inout Canvas) {
        guard strokeRadius == 0 else { return }
        for (g, px, py) in visible(glyphs, origin: origin, width: canvas.width, height: canvas.height) where g.face.hasColorBitmaps {
            if upright {
                drawColor(g, px: px, py: py, opacity: opacity, on: &canvas)
            } else {
                drawTurnedColor(g, px: px, py: py, opacity: opacity, on: &canvas)
            }
        }
    }

    /// The glyphs whose pen positions (in pixels) lie near enough to a `width`×`height` image to touch it.
    private func visible(_ glyphs: [PlacedGlyph], origin: Point, width: Int, height: Int) -> [(PlacedGlyph, Double, Double)] {
        let em = fontSize * linear.scaleRange.max
        let marginX = em * 3 + 2 + strokeRadius, marginY = em * 3 + 2 + strokeRadius
        let l = linear
        return glyphs.compactMap { g in
            let px = origin.x + g.x * l.a + g.y * l.b, py = origin.y + g.x * l.c + g.y * l.d
            if px < -marginX || px > Double(width) + marginX || py < -marginY || py > Double(height) + marginY { return nil }
            return (g, px, py)
        }
    }

    private mutating func addOutline(_ g: PlacedGlyph, px: Double, py: Double, into mask: inout CoverageMask) {
        let qx = (px * 4).rounded() / 4, qy = (py * 4).rounded() / 4
        let ix = qx.rounded(.down), iy = qy.rounded(.down)
        let fx = qx - ix, fy = qy - iy
        let key = Key(face: ObjectIdentifier(g.face), glyph: g.glyph, subpixel: Int(fx * 4) * 4 + Int(fy * 4), rotated: g.rotated)
        let bitmap: GlyphBitmap?
        if let cached = outlines[key] {
            bitmap = cached
        } else {
            let k = fontSize / g.face.unitsPerEm
            let pen = (x: Int(ix), y: Int(iy))
            let visible = (x: -pen.x..<(mask.width - pen.x), y: (pen.y - mask.height)..<pen.y)
            let perUnit = AffineTransform(a: k * linear.a, b: k * linear.b, c: k * linear.c, d: k * linear.d, tx: 0, ty: 0)
            let drawn = g.face.renderOutline(glyph: g.glyph, pixelsPerUnit: perUnit,
                                             shiftX: fx, shiftY: fy, strokeRadius: strokeRadius, rotated: g.rotated,
                                             visible: visible)
            switch drawn {
            case .empty:
                bitmap = nil
                outlines[key] = .some(nil)
            case .outside:
                bitmap = nil
            case .drawn(let image, let clipped):
                bitmap = image
                // A glyph cut at the canvas edge is drawn again where it shows whole.
                if !clipped { outlines[key] = image }
            }
        }
        guard let bitmap else { return }
        mask.add(coverage: bitmap.pixels, width: bitmap.width, height: bitmap.height,
                 x: Int(ix) + bitmap.left, y: Int(iy) - bitmap.top)
    }

    /// A colour glyph at the final size: resampled once, or (when that image would be huge) kept at
    /// the strike size and sampled only where it shows.
    private struct ColorGlyph {
        var strike: Image
        var scaled: Image?
        var width: Int
        var height: Int
        var left: Double
        var top: Double
    }

    /// Above this many pixels a colour glyph is sampled in place rather than resampled whole.
    static let maxResampledPixels = 4_000_000

    private mutating func drawColor(_ g: PlacedGlyph, px: Double, py: Double, opacity: UInt8, on canvas: inout Canvas) {
        let key = Key(face: ObjectIdentifier(g.face), glyph: g.glyph, subpixel: 0, rotated: false)
        let entry: ColorGlyph?
        if let cached = colorGlyphs[key] {
            entry = cached
        } else {
            entry = colorGlyph(g)
            colorGlyphs[key] = entry
        }
        guard let entry else { return }
        let x = Int((px + entry.left).rounded()), y = Int((py - entry.top).rounded())
        if let scaled = entry.scaled {
            canvas.draw(image: scaled, x: x, y: y, opacity: opacity)
        } else {
            canvas.draw(image: entry.strike, scaledTo: (width: entry.width, height: entry.height), x: x, y: y, opacity: opacity)
        }
    }

    /// A colour glyph through a turning map: its strike resampled once, straight into the turned
    /// pixels it covers.
    private func drawTurnedColor(_ g: PlacedGlyph, px: Double, py: Double, opacity: UInt8, on canvas: inout Canvas) {
        let em = fontSize * linear.scaleRange.max
        guard let bitmap = g.face.renderColorBitmap(glyph: g.glyph, pixelsPerEm: em) else { return }
        // One strike pixel in layout units, then the strike's top-left relative to the pen.
        let unit = bitmap.strikeScale * fontSize / em
        let toCanvas = AffineTransform.scale(unit, unit)
            .then(.translation(Double(bitmap.left) * unit, -Double(bitmap.top) * unit))
            .then(linear)
            .then(.translation(px, py))
        let strike = Image(width: bitmap.width, height: bitmap.height, pixels: bitmap.pixels)
        let box = toCanvas.boundingBox(of: Rect(x: 0, y: 0, width: Double(bitmap.width), height: Double(bitmap.height)))
        let x0 = max(0, Int(box.x.rounded(.down))), y0 = max(0, Int(box.y.rounded(.down)))
        let x1 = min(canvas.width, Int(box.maxX.rounded(.up))), y1 = min(canvas.height, Int(box.maxY.rounded(.up)))
        guard x0 < x1, y0 < y1,
              let turned = AffineResampler(filter: .lanczos3).warp(
                strike, transform: toCanvas.then(.translation(Double(-x0), Double(-y0))), width: x1 - x0, height: y1 - y0)
        else { return }
        canvas.draw(image: turned, x: x0, y: y0, opacity: opacity)
    }

    /// The glyph's strike bitmap brought to the final size, and its offset from the pen in pixels.
    private func colorGlyph(_ g: PlacedGlyph) -> ColorGlyph? {
        let scaleX = linear.a, scaleY = linear.d
        let emY = fontSize * scaleY
        guard let bitmap = g.face.renderColorBitmap(glyph: g.glyph, pixelsPerEm: emY) else { return nil }
        let fy = bitmap.strikeScale, fx = bitmap.strikeScale * scaleX / scaleY
        let strike = Image(width: bitmap.width, height: bitmap.height, pixels: bitmap.pixels)
        let w = max(1, Int((Double(bitmap.width) * fx).rounded()))
        let h = max(1, Int((Double(bitmap.height) * fy).rounded()))
        var scaled: Image?
        if w == bitmap.width && h == bitmap.height {
            scaled = strike
        } else if w * h <= Self.maxResampledPixels {
            scaled = Resampler(filter: .lanczos3).resize(strike, width: w, height: h)
        }
        return ColorGlyph(strike: strike, scaled: scaled, width: w, height: h,
                          left: Double(bitmap.left) * fx, top: Double(bitmap.top) * fy)
    }
}
