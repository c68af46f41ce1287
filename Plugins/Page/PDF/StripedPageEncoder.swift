import CSumiPixels
import SumiKit

/// Encodes a page from its rows as they arrive, as strips (`PageStrip`): each row is measured
/// (`RowContent`) as it is added and goes to the `StripPlanner`, and each strip the
/// planner finishes is encoded on the `StripQueue` while the next strip's rows arrive. Only the rows
/// of the strip in progress (at most the planner's `tallest`, and `flatGuard` rows) and the strips being
/// encoded are held; the compressed strips are kept until the page is written. Strips begin on the
/// page's strip grid (`PageGeometry.stripGrid`); when there are several, the last one's image gets
/// white rows below the page's own so that it too ends on the grid (`PageStrip.imageRows`).
final class StripedPageEncoder {
    let width: Int
    let height: Int
    private var planner: StripPlanner
    private let jpeg: StripEncoder.JPEGSettings
    private let measures: Bool
    private let queue = StripQueue()
    /// The rows not yet in a finished strip, from page row `bufferTop`.
    private var buffer: [UInt8] = []
    private var bufferTop = 0
    private var added = 0
    /// Whether some pixel so far is not opaque.
    private(set) var isTranslucent = false

    /// An encoder for a `width`x`height` page whose strips begin on multiples of `alignment` rows;
    /// JPEG strips (all of them for `.jpeg`, photo runs for `.auto`) at `jpeg`'s settings.
    init(width: Int, height: Int, mode: StripPlanner.Mode, jpeg: StripEncoder.JPEGSettings,
         alignment: Int = StripPlanner.defaultAlignment) {
        self.width = width
        self.height = height
        self.jpeg = jpeg
        planner = StripPlanner(mode: mode, width: width, alignment: alignment)
        measures = mode == .auto
        buffer.reserveCapacity((planner.tallest + 1) * width * 4)
    }

    /// Adds the next row (premultiplied RGBA, `width * 4` bytes).
    func add(_ row: UnsafeBufferPointer<UInt8>) throws {
        guard added < height else { throw StageError("the page got more rows than its height (\(height))") }
        let stride = width * 4
        let pixels = UnsafeBufferPointer(rebasing: row[0..<stride])
        buffer.append(contentsOf: pixels)
        if !isTranslucent {
            var x = 3
            while x < stride {
                if pixels[x] != 255 { isTranslucent = true; break }
                x += 4
            }
        }
        let measure = measures ? RowContent.measure(pixels, width: width) : RowContent.Measure(.plain)
        added += 1
        for cut in planner.add(rows: 1, measure: measure) { try submit(cut) }
    }

    /// The strips encoded so far that were not taken yet, top to bottom.
    func takeFinished() throws -> [PageStrip] { try queue.takeFinished() }

    /// The page's strips not taken yet, top to bottom, once every row was added.
    func finish() throws -> [PageStrip] {
        guard added == height else { throw StageError("the page ended after \(added) of its \(height) rows") }
        if let cut = planner.finish() {
            // One strip has no seam and stays the page's exact image; below several, the last
            // image is padded to the grid (white rows, which the MediaBox leaves out of the page).
            let a = planner.alignment
            try submit(cut, padding: bufferTop > 0 ? (a - height % a) % a : 0)
        }
        return try queue.finish()
    }

    /// Hands the strip `cut` describes (the first rows held, then `padding` opaque white rows) to
    /// the queue: one image, or when only some columns are JPEG, two images of the page's width
    /// drawn one over the other — the JPEG one, holding those columns and `apron` more on each side
    /// (beyond them each row's last such pixel again), below; over it the lossless one, holding every
    /// other column, masked out over the JPEG columns (a stencil), and under the mask the `apron`
    /// columns inside each edge as they are (beyond them each row's pixel at that edge again).
    /// Drawn full width, both are sampled by every reader exactly as one image of the page would
    /// be; tiles side by side, each starting at its own column, were not (mupdf and poppler map a
    /// tile's pixels from its own edge, and pick the other of two nearly equidistant pixels there).
    private func submit(_ cut: StripPlanner.Cut, padding: Int = 0) throws {
        let stride = width * 4
        let imageRows = cut.rows + padding
        guard buffer.count >= cut.rows * stride else { throw StageError("a strip of \(cut.rows) rows ended before its rows came") }
        let top = bufferTop, width = width, page = 0..<width
        var images: [(shows: Range<Int>, fills: [(columns: Range<Int>, from: Int)], hole: Range<Int>?, jpeg: Bool)] = [(page, [], nil, cut.jpegColumns == page)]
        // (A strip with translucent pixels keeps one lossless image: its soft mask would replace the stencil.)
        if let c = cut.jpegColumns, c != page, buffer.withUnsafeBufferPointer({ sumi_is_opaque($0.baseAddress, width * cut.rows) != 0 }) {
            let a = Self.apron
            let kept = max(0, c.lowerBound - a)..<min(width, c.upperBound + a)
            // (No apron at the page's edges: no image meets another there.)
            let from = c.lowerBound == 0 ? 0 : c.lowerBound + a, to = c.upperBound == width ? width : c.upperBound - a
            let inside = from..<max(from, to)
            var fills: [(columns: Range<Int>, from: Int)] = []
            if inside.count > 0 {
                let middle = inside.lowerBound == 0 ? 0 : inside.upperBound == width ? width : (inside.lowerBound + inside.upperBound) / 2
                fills = [(inside.lowerBound..<middle, inside.lowerBound - 1), (middle..<inside.upperBound, inside.upperBound)]
            }
            images = [
                (c, [(0..<kept.lowerBound, kept.lowerBound), (kept.upperBound..<width, kept.upperBound - 1)], nil, true),
                (page, fills, c, false),
            ]
        }
        for image in images {
            let pixels = buffer.withUnsafeBufferPointer { held in
                Self.rows(held, width: width, rows: cut.rows, fills: image.fills.filter { !$0.columns.isEmpty }, padding: padding)
            }
            let settings = image.jpeg ? jpeg : nil, shows = image.shows, hole = image.hole
            let content: RowContent = image.jpeg || images.count == 1 ? cut.content : .mixed
            try queue.submit {
                let encoded = try StripEncoder.encode(Image(width: width, height: imageRows, pixels: pixels), jpeg: settings)
                let stencil = try hole.map { try StripEncoder.stencil(width: width, rows: imageRows, hole: $0) }
                return PageStrip(top: top, rows: cut.rows, imageRows: imageRows, left: shows.lowerBound, columns: shows.count,
                                 hole: hole, stencil: stencil, data: encoded.data, alpha: encoded.alpha, content: content,
                                 quality: encoded.quality, psnr: encoded.psnr)
            }
        }
        buffer.removeFirst(cut.rows * stride)
        bufferTop += cut.rows
    }

    /// Columns each image of a strip cut in two holds as they are beyond the columns it shows: a
    /// reader that draws the page smaller averages pixels on both sides of the JPEG columns' edges
    /// from each image (poppler at 72 dpi with `/UserUnit 5`: five columns a device pixel), masked
    /// out or not; 3 were enough there, 1 was not.
    static let apron = 4

    /// The first `rows` rows held (`width` pixels, premultiplied RGBA), each row's `fills` columns
    /// given its pixel at column `from` instead, then `padding` opaque white rows.
    private static func rows(_ held: UnsafeBufferPointer<UInt8>, width: Int, rows: Int, fills: [(columns: Range<Int>, from: Int)],
                             padding: Int) -> PixelBuffer {
        let stride = width * 4
        if fills.isEmpty && padding == 0 { return PixelBuffer(held[0..<(rows * stride)]) }
        var pixels = PixelBuffer(repeating: 255, count: (rows + padding) * stride)
        pixels.withUnsafeMutableBufferPointer { out in
            _ = UnsafeMutableBufferPointer(rebasing: out[0..<(rows * stride)]).update(fromContentsOf: held[0..<(rows * stride)])
            guard let base = out.baseAddress else { return }
            UnsafeMutableRawPointer(base).withMemoryRebound(to: UInt32.self, capacity: out.count / 4) { words in
                for y in 0..<rows {
                    let row = words + y * width
                    for fill in fills {
                        let pixel = row[fill.from]
                        (row + fill.columns.lowerBound).update(repeating: pixel, count: fill.columns.count)
                    }
                }
            }
        }
        return pixels
    }
}
