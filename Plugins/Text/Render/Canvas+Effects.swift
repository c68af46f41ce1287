import SumiKit

/// Caption effects on a canvas: a box with rounded corners and a Gaussian-like blur for shadows.
extension Canvas {
    /// Fills a rounded box: the ring between `outer` (corner radius `radius`) and `inner` (radius
    /// `radius` less the border) with `border`, `inner` with `background`. Coverage comes from the
    /// distance to each rounded rectangle, so curved and straight edges are anti-aliased alike.
    /// The canvas must still be empty.
    mutating func fillRoundedBox(outer: Rect, inner: Rect, radius: Double, border: Color, background: Color) {
        guard border.alpha > 0 || background.alpha > 0 else { return }
        let outerRadius = min(radius, outer.width / 2, outer.height / 2)
        let innerRadius = min(max(0, outerRadius - (inner.x - outer.x)), inner.width / 2, inner.height / 2)
        let b = border.premultiplied, g = background.premultiplied
        let bc = [Double(b.0), Double(b.1), Double(b.2), Double(b.3)]
        let gc = [Double(g.0), Double(g.1), Double(g.2), Double(g.3)]
        let x0 = max(0, Int(outer.x.rounded(.down))), x1 = min(width, Int(outer.maxX.rounded(.up)))
        let y0 = max(0, Int(outer.y.rounded(.down))), y1 = min(height, Int(outer.maxY.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            for y in y0..<y1 {
                let cy = Double(y) + 0.5
                for x in x0..<x1 {
                    let cx = Double(x) + 0.5
                    let outerCoverage = Self.coverage(cx, cy, rect: outer, radius: outerRadius)
                    guard outerCoverage > 0 else { continue }
                    let innerCoverage = min(outerCoverage, Self.coverage(cx, cy, rect: inner, radius: innerRadius))
                    let ring = outerCoverage - innerCoverage
                    let i = (y * w + x) * 4
                    for c in 0..<4 { px[i + c] = UInt8(min(255, (bc[c] * ring + gc[c] * innerCoverage).rounded())) }
                }
            }
        }
    }

    /// Fills a box given in layout units and drawn through `transform` (turned): the ring between
    /// `outer` (corner radius `radius`, 0 for square corners) and `inner` with `border`, `inner` with
    /// `background`. Each pixel centre is mapped back into layout units and covered by its signed
    /// distance to the edges, measured in pixels, so turned edges are anti-aliased like upright ones.
    /// The canvas must still be empty.
    mutating func fillBox(outer: Rect, inner: Rect, radius: Double, through transform: AffineTransform,
                          border: Color, background: Color) {
        guard border.alpha > 0 || background.alpha > 0, let inverse = transform.inverted else { return }
        let outerRadius = min(radius, outer.width / 2, outer.height / 2)
        let innerRadius = min(max(0, outerRadius - (inner.x - outer.x)), inner.width / 2, inner.height / 2)
        let pixelsPerUnit = transform.scaleRange.min
        let b = border.premultiplied, g = background.premultiplied
        let bc = [Double(b.0), Double(b.1), Double(b.2), Double(b.3)]
        let gc = [Double(g.0), Double(g.1), Double(g.2), Double(g.3)]
        let reach = transform.boundingBox(of: outer)
        let x0 = max(0, Int(reach.x.rounded(.down)) - 1), x1 = min(width, Int(reach.maxX.rounded(.up)) + 1)
        let y0 = max(0, Int(reach.y.rounded(.down)) - 1), y1 = min(height, Int(reach.maxY.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        // A pixel's coverage is only computed near an edge: per row, the pixels whose centres map
        // within a pixel of the outer box, less those a pixel or more inside the inner box (plain
        // background: left empty when it is transparent). Inside the inner box's rounded corners
        // lies only the cross of two rectangles each clear of the corners' arcs.
        let onePixel = 1 / pixelsPerUnit
        let reachable = Rect(x: outer.x - onePixel, y: outer.y - onePixel,
                             width: outer.width + 2 * onePixel, height: outer.height + 2 * onePixel)
        let wide = Self.inset(inner, x: onePixel + innerRadius, y: onePixel)
        let tall = Self.inset(inner, x: onePixel, y: onePixel + innerRadius)
        let step = Point(x: inverse.a, y: inverse.c)
        pixels.withUnsafeMutableBufferPointer { px in
            for y in y0..<y1 {
                let start = inverse.apply(Point(x: 0.5, y: Double(y) + 0.5))
                let row = Self.span(of: reachable, from: start, step: step, within: x0..<x1)
                let inside = Self.deepSpan(wide, tall, from: start, step: step, within: row)
                var x = row.lowerBound
                while x < row.upperBound {
                    let i = (y * w + x) * 4
                    if inside.contains(x) {
                        if g.3 > 0 { px[i] = g.0; px[i + 1] = g.1; px[i + 2] = g.2; px[i + 3] = g.3 }
                        x += 1
                        if g.3 == 0 { x = max(x, inside.upperBound) }
                        continue
                    }
                    let p = Point(x: start.x + Double(x) * step.x, y: start.y + Double(x) * step.y)
                    let outerCoverage = Self.coverage(p.x, p.y, rect: outer, radius: outerRadius, pixelsPerUnit: pixelsPerUnit)
                    if outerCoverage > 0 {
                        let innerCoverage = min(outerCoverage, Self.coverage(p.x, p.y, rect: inner, radius: innerRadius,
                                                                             pixelsPerUnit: pixelsPerUnit))
                        let ring = outerCoverage - innerCoverage
                        for c in 0..<4 { px[i + c] = UInt8(min(255, (bc[c] * ring + gc[c] * innerCoverage).rounded())) }
                    }
                    x += 1
                }
            }
        }
    }

    /// The columns `x` in `columns` for which `start + x · step` lies in `rect` (a row of pixel
    /// centres mapped back into layout units is a line: clipped to the rectangle per axis).
    private static func span(of rect: Rect, from start: Point, step: Point, within columns: Range<Int>) -> Range<Int> {
        var lo = Double(columns.lowerBound), hi = Double(columns.upperBound - 1)
        for (s, d, a, b) in [(start.x, step.x, rect.x, rect.maxX), (start.y, step.y, rect.y, rect.maxY)] {
            if d == 0 {
                if s < a || s > b { return columns.lowerBound..<columns.lowerBound }
            } else {
                let t1 = (a - s) / d, t2 = (b - s) / d
                lo = max(lo, min(t1, t2)); hi = min(hi, max(t1, t2))
            }
        }
        guard lo <= hi, lo.isFinite, hi.isFinite else { return columns.lowerBound..<columns.lowerBound }
        let first = Int(lo.rounded(.up)), last = Int(hi.rounded(.down))
        return first <= last ? first..<(last + 1) : columns.lowerBound..<columns.lowerBound
    }

    /// `rect` shrunk by `x` on the left and right and `y` at the top and bottom; `nil` when nothing is left.
    private static func inset(_ rect: Rect, x: Double, y: Double) -> Rect? {
        let w = rect.width - 2 * x, h = rect.height - 2 * y
        return w > 0 && h > 0 ? Rect(x: rect.x + x, y: rect.y + y, width: w, height: h) : nil
    }

    /// The columns of `columns` whose mapped centres lie in `a` or in `b`, when those form one
    /// run (else the longer of the two): pixels deep inside a rounded box, as one span.
    private static func deepSpan(_ a: Rect?, _ b: Rect?, from start: Point, step: Point, within columns: Range<Int>) -> Range<Int> {
        let none = columns.lowerBound..<columns.lowerBound
        let spans = [a, b].map { rect in rect.map { span(of: $0, from: start, step: step, within: columns) } ?? none }
            .filter { !$0.isEmpty }
        guard let first = spans.first else { return none }
        guard let second = spans.last, spans.count == 2 else { return first }
        if first.overlaps(second) || first.upperBound == second.lowerBound || second.upperBound == first.lowerBound {
            return min(first.lowerBound, second.lowerBound)..<max(first.upperBound, second.upperBound)
        }
        return first.count >= second.count ? first : second
    }

    /// How much of the pixel centred at (x, y) a rounded rectangle covers (0...1), from the signed
    /// distance to its edge (coordinates in units of `1 / pixelsPerUnit` pixels).
    private static func coverage(_ x: Double, _ y: Double, rect: Rect, radius: Double, pixelsPerUnit: Double = 1) -> Double {
        guard rect.width > 0, rect.height > 0 else { return 0 }
        let hx = rect.width / 2, hy = rect.height / 2
        let qx = abs(x - (rect.x + hx)) - (hx - radius), qy = abs(y - (rect.y + hy)) - (hy - radius)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let distance = outside + min(max(qx, qy), 0) - radius
        return min(1, max(0, 0.5 - distance * pixelsPerUnit))
    }

    /// Blurs every channel with three box blurs in each direction, which approximate a Gaussian of
    /// standard deviation `sigma` pixels.
    mutating func blur(sigma: Double) {
        guard sigma > 0.1, width > 0, height > 0 else { return }
        // Box width for three passes (W. Jarosz, "Fast image convolutions").
        let boxWidth = (12 * sigma * sigma / 3 + 1).squareRoot()
        let radius = max(1, Int((boxWidth - 1) / 2))
        var scratch = [UInt32](repeating: 0, count: max(width, height) * 4)
        for _ in 0..<3 {
            boxPass(radius: radius, count: width, lines: height, step: 4, lineStep: width * 4, scratch: &scratch)
            boxPass(radius: radius, count: height, lines: width, step: width * 4, lineStep: 4, scratch: &scratch)
        }
    }

    /// One running-sum box blur along `lines` lines of `count` pixels (edges are transparent).
    private mutating func boxPass(radius: Int, count: Int, lines: Int, step: Int, lineStep: Int,
                                  scratch: inout [UInt32]) {
        let window = UInt32(2 * radius + 1)
        pixels.withUnsafeMutableBufferPointer { px in
            scratch.withUnsafeMutableBufferPointer { line in
                for l in 0..<lines {
                    let base = l * lineStep
                    for i in 0..<count { for c in 0..<4 { line[i * 4 + c] = UInt32(px[base + i * step + c]) } }
                    var sum: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                    for i in 0..<min(radius, count) {
                        sum.0 += line[i * 4]; sum.1 += line[i * 4 + 1]; sum.2 += line[i * 4 + 2]; sum.3 += line[i * 4 + 3]
                    }
                    for i in 0..<count {
                        let add = i + radius, drop = i - radius - 1
                        if add < count {
                            sum.0 += line[add * 4]; sum.1 += line[add * 4 + 1]; sum.2 += line[add * 4 + 2]; sum.3 += line[add * 4 + 3]
                        }
                        if drop >= 0 {
                            sum.0 -= line[drop * 4]; sum.1 -= line[drop * 4 + 1]; sum.2 -= line[drop * 4 + 2]; sum.3 -= line[drop * 4 + 3]
                        }
                        let o = base + i * step
                        px[o] = UInt8((sum.0 + window / 2) / window)
                        px[o + 1] = UInt8((sum.1 + window / 2) / window)
                        px[o + 2] = UInt8((sum.2 + window / 2) / window)
                        px[o + 3] = UInt8((sum.3 + window / 2) / window)
                    }
                }
            }
        }
    }
}
