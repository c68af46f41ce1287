import SumiKit

/// How much of each pixel a run of glyphs covers (0...255), gathered before any colour is applied.
///
/// Glyphs are added into one mask and the mask is then composited once in the text's colour: where
/// glyphs overlap (Devanagari's marks over their bases, Nastaliq's stacked letters, an outline under
/// its fill), a translucent colour stays as translucent as it was given instead of darkening at
/// every overlap. Coverages add and saturate at full, as cairo adds glyph masks before it paints.
struct CoverageMask {
    let width: Int
    let height: Int
    private(set) var values: [UInt8]
    /// The rows and columns anything was added to (empty ranges: nothing yet).
    private(set) var rows: Range<Int> = 0..<0
    private(set) var columns: Range<Int> = 0..<0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        values = [UInt8](repeating: 0, count: width * height)
    }

    private mutating func touch(x0: Int, x1: Int, y0: Int, y1: Int) {
        rows = rows.isEmpty ? y0..<y1 : min(rows.lowerBound, y0)..<max(rows.upperBound, y1)
        columns = columns.isEmpty ? x0..<x1 : min(columns.lowerBound, x0)..<max(columns.upperBound, x1)
    }

    /// Adds an 8-bit coverage bitmap with its top-left at pixel (`x`, `y`), clipped to the mask.
    mutating func add(coverage bitmap: [UInt8], width bw: Int, height bh: Int, x: Int, y: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + bw), y1 = min(height, y + bh)
        guard x0 < x1, y0 < y1 else { return }
        touch(x0: x0, x1: x1, y0: y0, y1: y1)
        let w = width
        values.withUnsafeMutableBufferPointer { dst in
            bitmap.withUnsafeBufferPointer { src in
                for row in y0..<y1 {
                    var s = (row - y) * bw + (x0 - x)
                    var d = row * w + x0
                    for _ in x0..<x1 {
                        let sum = UInt16(dst[d]) + UInt16(src[s])
                        dst[d] = UInt8(min(255, sum))
                        s += 1
                        d += 1
                    }
                }
            }
        }
    }

    /// Adds the alpha of a canvas of the mask's size (colour glyphs drawn there stand for their
    /// silhouettes).
    mutating func add(alphaOf canvas: Canvas) {
        guard canvas.width == width, canvas.height == height else { return }
        var alpha = [UInt8](repeating: 0, count: width * height)
        var drawn = false
        canvas.pixels.withUnsafeBufferPointer { px in
            for i in 0..<(width * height) where px[i * 4 + 3] != 0 {
                alpha[i] = px[i * 4 + 3]
                drawn = true
            }
        }
        if drawn { add(coverage: alpha, width: width, height: height, x: 0, y: 0) }
    }

    /// Blurs the mask with three box blurs in each direction, which approximate a Gaussian of
    /// standard deviation `sigma` pixels (as `Canvas.blur` does for colour).
    mutating func blur(sigma: Double) {
        guard sigma > 0.1, width > 0, height > 0, !rows.isEmpty else { return }
        let boxWidth = (12 * sigma * sigma / 3 + 1).squareRoot()
        let radius = max(1, Int((boxWidth - 1) / 2))
        // Three passes of radius r spread ink 3r pixels: only that neighbourhood of what was drawn changes.
        let reach = 3 * radius
        let y0 = max(0, rows.lowerBound - reach), y1 = min(height, rows.upperBound + reach)
        let x0 = max(0, columns.lowerBound - reach), x1 = min(width, columns.upperBound + reach)
        var scratch = [UInt32](repeating: 0, count: max(width, height))
        for _ in 0..<3 {
            for y in y0..<y1 { boxPass(radius: radius, start: y * width + x0, count: x1 - x0, step: 1, scratch: &scratch) }
            for x in x0..<x1 { boxPass(radius: radius, start: y0 * width + x, count: y1 - y0, step: width, scratch: &scratch) }
        }
        touch(x0: x0, x1: x1, y0: y0, y1: y1)
    }

    /// One running-sum box blur along `count` values from `start`, `step` apart (beyond them: zero).
    private mutating func boxPass(radius: Int, start: Int, count: Int, step: Int, scratch: inout [UInt32]) {
        let window = UInt32(2 * radius + 1)
        values.withUnsafeMutableBufferPointer { v in
            scratch.withUnsafeMutableBufferPointer { line in
                for i in 0..<count { line[i] = UInt32(v[start + i * step]) }
                var sum: UInt32 = 0
                for i in 0..<min(radius, count) { sum += line[i] }
                for i in 0..<count {
                    let add = i + radius, drop = i - radius - 1
                    if add < count { sum += line[add] }
                    if drop >= 0 { sum -= line[drop] }
                    v[start + i * step] = UInt8((sum + window / 2) / window)
                }
            }
        }
    }
}

extension Canvas {
    /// Composites a coverage mask of the canvas's size in `color`, once, over what is drawn.
    mutating func draw(_ mask: CoverageMask, color: Color) {
        guard mask.width == width, mask.height == height, !mask.rows.isEmpty, color.alpha > 0 else { return }
        // Only the rows anything was added to.
        let rows = mask.rows
        draw(coverage: Array(mask.values[(rows.lowerBound * width)..<(rows.upperBound * width)]), width: width,
             height: rows.count, x: 0, y: rows.lowerBound, color: color)
    }
}
