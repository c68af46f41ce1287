import SumiKit

/// Encodes a page from its rows as they arrive, as strips (`PageStrip`): each row is measured
/// (`RowContent`) as it is added and goes to the `StripPlanner`, and each strip the
/// planner finishes is encoded on the `StripQueue` while the next strip's rows arrive. Only the rows
/// of the strip in progress (at most the planner's `tallest`) and the strips being
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
    /// the queue: one image, or when only some columns are JPEG, a JPEG tile over those with
    /// lossless tiles of the same rows on either side.
    private func submit(_ cut: StripPlanner.Cut, padding: Int = 0) throws {
        let stride = width * 4
        let imageRows = cut.rows + padding
        guard buffer.count >= cut.rows * stride else { throw StageError("a strip of \(cut.rows) rows ended before its rows came") }
        let top = bufferTop
        var tiles: [(columns: Range<Int>, jpeg: Bool)] = [(0..<width, cut.jpeg)]
        if let c = cut.jpegColumns, c != 0..<width {
            tiles = [(0..<c.lowerBound, false), (c, true), (c.upperBound..<width, false)].filter { !$0.columns.isEmpty }
        }
        for tile in tiles {
            let pixels = buffer.withUnsafeBufferPointer { held in
                Self.tile(held, stride: stride, rows: cut.rows, columns: tile.columns, padding: padding)
            }
            let columns = tile.columns, settings = tile.jpeg ? jpeg : nil
            let content: RowContent = tile.jpeg || tiles.count == 1 ? cut.content : .mixed
            try queue.submit {
                let image = Image(width: columns.count, height: imageRows, pixels: pixels)
                let encoded = try StripEncoder.encode(image, jpeg: settings)
                return PageStrip(top: top, rows: cut.rows, imageRows: imageRows, left: columns.lowerBound, columns: columns.count,
                                 data: encoded.data, alpha: encoded.alpha, content: content, quality: encoded.quality, psnr: encoded.psnr)
            }
        }
        buffer.removeFirst(cut.rows * stride)
        bufferTop += cut.rows
    }

    /// The pixels of `columns` of the first `rows` rows held (`stride` bytes a row), then `padding`
    /// opaque white rows.
    private static func tile(_ held: UnsafeBufferPointer<UInt8>, stride: Int, rows: Int, columns: Range<Int>, padding: Int) -> [UInt8] {
        let rowBytes = columns.count * 4
        if rowBytes == stride && padding == 0 { return Array(held[0..<(rows * stride)]) }
        var pixels = [UInt8](repeating: 255, count: (rows + padding) * rowBytes)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<rows {
                let from = y * stride + columns.lowerBound * 4
                _ = UnsafeMutableBufferPointer(rebasing: out[(y * rowBytes)..<((y + 1) * rowBytes)])
                    .update(fromContentsOf: held[from..<(from + rowBytes)])
            }
        }
        return pixels
    }
}
