import Glibc
import SumiKit

/// Finds the window of an image worth keeping when it is cut to a smaller size: the analysis behind
/// the content-aware `CropGravity` choices (`attention`, `entropy`).
///
/// The image is measured on a grid of square cells (at most `gridSide` a side: a cell is one pixel
/// of an image up to 256 pixels, 24 of a 6000-pixel one), so the analysis costs one pass over the
/// pixels and a grid of at most 65,536 cells, and the window is placed to within one cell.
///
/// - `attention` scores each cell by what draws the eye, the measures libvips' smartcrop uses:
///   detail (the mean luma step to the right and lower neighbours, at full resolution, so fine texture
///   counts), colourfulness (the mean chroma, max − min of R, G, B) and skin tone (the cell's mean
///   colour, as a direction in RGB, near that of skin); dark cells count only for detail, and detail
///   and colour count only above the picture's median cell (what stands out: a wide blue sky is
///   colourful everywhere and draws no eye). The window with the largest sum of scores wins (a summed-area table gives every position's sum);
///   among windows within 2 % of the best, the one whose centre is nearest the centre of mass of
///   the scores it holds (then the one nearest the picture's middle), so an object smaller than the
///   window is framed in its middle rather than touching an edge (libvips centres its window on the highest point of a blurred score map
///   instead).
/// - `entropy` keeps the busiest tones: while the window is wider than asked, the strip at its left
///   or right edge whose luma histogram (32 bins) has less Shannon entropy is cut, then the same
///   for height (libvips' `entropy`). Equal strips are cut from the side that keeps the window
///   centred.
///
/// A window can only be chosen once every row has been seen, so a stage using this holds its input
/// whole: `crop` (whose input then costs 4 bytes a pixel, within the run's pixel limit) and
/// `scale fit=cover`, which holds only the resized image it crops from.
public struct InterestingRegion: Sendable {
    public enum Measure: Sendable { case attention, entropy }

    /// The most cells of the analysis grid on one side.
    static let gridSide = 256
    /// Histogram bins of the entropy measure.
    static let bins = 32

    let image: Image
    /// Pixels a cell is wide and tall.
    let cell: Int
    let columns: Int
    let rows: Int

    public init(image: Image) {
        self.image = image
        cell = max(1, (max(image.width, image.height) + Self.gridSide - 1) / Self.gridSide)
        columns = max(1, (image.width + cell - 1) / cell)
        rows = max(1, (image.height + cell - 1) / cell)
    }

    /// The top-left corner of the `width × height` window to keep (a side at least the image's keeps
    /// the whole side).
    public func window(width: Int, height: Int, measure: Measure) -> (x: Int, y: Int) {
        guard width < image.width || height < image.height else { return (0, 0) }
        // The window in whole cells, never larger than asked, so the pixel window centred on it
        // holds all of it.
        let wc = min(columns, max(1, width / cell)), hc = min(rows, max(1, height / cell))
        let (cx, cy) = switch measure {
        case .attention: attentionWindow(columns: wc, rows: hc)
        case .entropy: entropyWindow(columns: wc, rows: hc)
        }
        let x = cx * cell - (width - wc * cell) / 2, y = cy * cell - (height - hc * cell) / 2
        return (x: max(0, min(image.width - width, x)), y: max(0, min(image.height - height, y)))
    }

    // MARK: attention

    /// Each cell's score: detail + colourfulness + skin, each in 0…1.
    func attentionScores() -> [Double] {
        let count = columns * rows
        // Per cell, in whole numbers: detail, chroma, red, green, blue, alpha, pixels.
        let fields = 7
        var sums = [Int](repeating: 0, count: count * fields)
        let width = image.width, height = image.height, cell = self.cell, columns = self.columns
        var above = [Int](repeating: 0, count: width), luma = [Int](repeating: 0, count: width)
        image.pixels.withUnsafeBufferPointer { source in
            sums.withUnsafeMutableBufferPointer { sums in
                guard let base = source.baseAddress, let total = sums.baseAddress else { return }
                for y in 0..<height {
                    let row = base + y * width * 4
                    luma.withUnsafeMutableBufferPointer { luma in
                        for x in 0..<width {
                            let p = row + x * 4
                            luma[x] = (54 * Int(p[0]) + 183 * Int(p[1]) + 19 * Int(p[2]) + 128) >> 8
                        }
                    }
                    luma.withUnsafeBufferPointer { luma in
                        above.withUnsafeBufferPointer { above in
                            let cellRow = (y / cell) * columns
                            for x in 0..<width {
                                let p = row + x * 4
                                let r = Int(p[0]), g = Int(p[1]), b = Int(p[2])
                                let c = total + (cellRow + x / cell) * fields
                                let right = x + 1 < width ? abs(luma[x] - luma[x + 1]) : 0
                                let up = y > 0 ? abs(luma[x] - above[x]) : 0
                                c[0] += right + up
                                c[1] += max(r, g, b) - min(r, g, b)
                                c[2] += r; c[3] += g; c[4] += b; c[5] += Int(p[3]); c[6] += 1
                            }
                        }
                    }
                    swap(&above, &luma)
                }
            }
        }
        func sum(_ field: Int) -> [Double] { (0..<count).map { Double(sums[$0 * fields + field]) } }
        let detail = sum(0), chroma = sum(1), red = sum(2), green = sum(3), blue = sum(4), alpha = sum(5), pixels = sum(6)
        // The direction of skin in sRGB (smartcrop.js' skin colour, normalised).
        let skinNorm = (0.78 * 0.78 + 0.57 * 0.57 + 0.44 * 0.44).squareRoot()
        let skin = (0.78 / skinNorm, 0.57 / skinNorm, 0.44 / skinNorm)
        var detailScores = [Double](repeating: 0, count: count), colourScores = detailScores, skinScores = detailScores
        for i in 0..<count {
            let n = max(1, pixels[i])
            detailScores[i] = min(1, detail[i] / n / 32)
            guard alpha[i] > 0 else { continue }
            // The mean colour, unpremultiplied, in 0…1.
            let r = red[i] / alpha[i], g = green[i] / alpha[i], b = blue[i] / alpha[i]
            let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
            guard luma > 0.05 else { continue }
            colourScores[i] = chroma[i] / n / 255
            let length = (r * r + g * g + b * b).squareRoot()
            let dr = r / length - skin.0, dg = g / length - skin.1, db = b / length - skin.2
            skinScores[i] = luma < 0.2 ? 0 : max(0, 1 - (dr * dr + dg * dg + db * db).squareRoot() / 0.25)
        }
        // Detail and colour count where they stand out: above the picture's median cell, so a wide
        // blue sky or an evenly textured field does not outweigh the one thing that differs.
        let usualDetail = Self.median(detailScores), usualColour = Self.median(colourScores)
        return (0..<count).map { i in
            max(0, detailScores[i] - usualDetail) + max(0, colourScores[i] - usualColour) + skinScores[i]
        }
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }

    func attentionWindow(columns wc: Int, rows hc: Int) -> (Int, Int) {
        let scores = attentionScores()
        let sums = SummedArea(columns: columns, rows: rows) { scores[$1 * columns + $0] }
        let xs = SummedArea(columns: columns, rows: rows) { scores[$1 * columns + $0] * (Double($0) + 0.5) }
        let ys = SummedArea(columns: columns, rows: rows) { scores[$1 * columns + $0] * (Double($1) + 0.5) }
        var best = -Double.infinity
        for y in 0...(rows - hc) { for x in 0...(columns - wc) { best = max(best, sums.sum(x, y, wc, hc)) } }
        var choice = ((columns - wc) / 2, (rows - hc) / 2), nearest = Double.infinity
        for y in 0...(rows - hc) {
            for x in 0...(columns - wc) {
                let total = sums.sum(x, y, wc, hc)
                guard total >= best - 0.02 * abs(best) - 1e-9 else { continue }
                let centreX = Double(x) + Double(wc) / 2, centreY = Double(y) + Double(hc) / 2
                let massX = total > 0 ? xs.sum(x, y, wc, hc) / total : Double(columns) / 2
                let massY = total > 0 ? ys.sum(x, y, wc, hc) / total : Double(rows) / 2
                // Framing first; then, among equals (an even picture), the window nearest the middle.
                let middleX = centreX - Double(columns) / 2, middleY = centreY - Double(rows) / 2
                let distance = (centreX - massX) * (centreX - massX) + (centreY - massY) * (centreY - massY)
                    + 1e-4 * (middleX * middleX + middleY * middleY)
                if distance < nearest { nearest = distance; choice = (x, y) }
            }
        }
        return choice
    }

    // MARK: entropy

    /// Each cell's luma histogram, `bins` counts a cell.
    func histograms() -> [UInt32] {
        var counts = [UInt32](repeating: 0, count: columns * rows * Self.bins)
        let width = image.width, height = image.height, cell = self.cell, columns = self.columns
        let shift = 8 - Self.bins.trailingZeroBitCount
        image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for y in 0..<height {
                let row = base + y * width * 4
                let cellRow = (y / cell) * columns
                for x in 0..<width {
                    let p = row + x * 4
                    let luma = (54 * Int(p[0]) + 183 * Int(p[1]) + 19 * Int(p[2]) + 128) >> 8
                    counts[(cellRow + x / cell) * Self.bins + (luma >> shift)] += 1
                }
            }
        }
        return counts
    }

    func entropyWindow(columns wc: Int, rows hc: Int) -> (Int, Int) {
        let counts = histograms()
        func entropy(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> Double {
            var histogram = [Double](repeating: 0, count: Self.bins)
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = (y * columns + x) * Self.bins
                    for b in 0..<Self.bins { histogram[b] += Double(counts[i + b]) }
                }
            }
            let total = histogram.reduce(0, +)
            guard total > 0 else { return 0 }
            return histogram.reduce(0) { h, c in c > 0 ? h - c / total * log2(c / total) : h }
        }
        var (x0, x1, y0, y1) = (0, columns, 0, rows)
        let stepX = max(1, columns / 32), stepY = max(1, rows / 32)
        while x1 - x0 > wc {
            let step = min(stepX, x1 - x0 - wc)
            let left = entropy(x0, x0 + step, y0, y1), right = entropy(x1 - step, x1, y0, y1)
            if left < right || (left == right && x0 <= columns - x1) { x0 += step } else { x1 -= step }
        }
        while y1 - y0 > hc {
            let step = min(stepY, y1 - y0 - hc)
            let top = entropy(x0, x1, y0, y0 + step), bottom = entropy(x0, x1, y1 - step, y1)
            if top < bottom || (top == bottom && y0 <= rows - y1) { y0 += step } else { y1 -= step }
        }
        return (x0, y0)
    }
}

/// A summed-area table over a grid: the sum of any rectangle of cells in four look-ups.
struct SummedArea {
    let columns: Int
    private var table: [Double]

    init(columns: Int, rows: Int, _ value: (Int, Int) -> Double) {
        self.columns = columns
        table = [Double](repeating: 0, count: (columns + 1) * (rows + 1))
        for y in 0..<rows {
            var line = 0.0
            for x in 0..<columns {
                line += value(x, y)
                table[(y + 1) * (columns + 1) + x + 1] = table[y * (columns + 1) + x + 1] + line
            }
        }
    }

    /// The sum of the `w × h` cells from (`x`, `y`).
    func sum(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> Double {
        let stride = columns + 1
        return table[(y + h) * stride + x + w] - table[y * stride + x + w] - table[(y + h) * stride + x] + table[y * stride + x]
    }
}
