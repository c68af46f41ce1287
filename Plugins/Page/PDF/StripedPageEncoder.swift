import SumiKit

/// Encodes a page from its rows as they arrive, as strips (`PageStrip`): each row is measured
/// (`RowContent`) as it is added and goes to the `StripPlanner`, and each strip the
/// planner finishes is encoded on the `StripQueue` while the next strip's rows arrive. Only the rows
/// of the strip in progress (at most `StripPlanner.maximumRows`) and the strips being
/// encoded are held; the compressed strips are kept until the page is written.
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

    /// An encoder for a `width`x`height` page; JPEG strips (all of them for `.jpeg`, photo runs for
    /// `.auto`) at `jpeg`'s settings.
    init(width: Int, height: Int, mode: StripPlanner.Mode, jpeg: StripEncoder.JPEGSettings) {
        self.width = width
        self.height = height
        self.jpeg = jpeg
        planner = StripPlanner(mode: mode)
        measures = mode == .auto
        buffer.reserveCapacity((StripPlanner.maximumRows + 1) * width * 4)
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
        if let cut = planner.finish() { try submit(cut) }
        return try queue.finish()
    }

    /// Hands the strip `cut` describes (the first rows held) to the queue.
    private func submit(_ cut: StripPlanner.Cut) throws {
        let stride = width * 4
        let imageRows = cut.rows
        guard buffer.count >= imageRows * stride else { throw StageError("a strip of \(imageRows) rows ended before its rows came") }
        let pixels = Array(buffer[0..<(imageRows * stride)])
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
