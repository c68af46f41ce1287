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
        planner = StripPlanner(mode: mode, alignment: alignment)
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
        let content = measures ? RowContent.classify(pixels, width: width) : .plain
        added += 1
        for cut in planner.add(rows: 1, content: content) { try submit(cut) }
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
    /// the queue.
    private func submit(_ cut: StripPlanner.Cut, padding: Int = 0) throws {
        let stride = width * 4
        let imageRows = cut.rows + padding
        guard buffer.count >= cut.rows * stride else { throw StageError("a strip of \(cut.rows) rows ended before its rows came") }
        var rows = Array(buffer[0..<(cut.rows * stride)])
        if padding > 0 { rows.append(contentsOf: repeatElement(255, count: padding * stride)) }
        let pixels = rows
        buffer.removeFirst(cut.rows * stride)
        let top = bufferTop, width = width, settings = cut.jpeg ? jpeg : nil
        bufferTop += cut.rows
        try queue.submit {
            let image = Image(width: width, height: imageRows, pixels: pixels)
            let encoded = try StripEncoder.encode(image, jpeg: settings)
            return PageStrip(top: top, rows: cut.rows, imageRows: imageRows, data: encoded.data, alpha: encoded.alpha,
                             content: cut.content, quality: encoded.quality, psnr: encoded.psnr)
        }
    }
}
