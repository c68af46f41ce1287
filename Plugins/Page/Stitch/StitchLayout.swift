import SumiKit

/// Where each capture goes in the stitched image and which rows each one contributes.
///
/// Capture `i`'s top is at `offsets[i]` in the stitched image. The header rows come from the first
/// capture, the footer rows from the last; every other row comes from one capture whose scrolling
/// region shows it, switching from one capture to the next in the middle of their overlap. Where
/// captures that overlap none above are joined (`gaps: allow`), `separators` rows of
/// `separatorPixel` stand between them.
struct StitchLayout: Sendable {
    let width: Int
    let heights: [Int]
    let offsets: [Int]
    let header: Int
    let footer: Int
    var separators: [Range<Int>] = []

    /// The rows of a separator: 16, enough to see at a glance at any zoom a page is read at.
    static let separatorRows = 16
    /// A separator's colour: opaque mid grey (128, 128, 128), which neither a white nor a dark page
    /// hides, and which no overlap search takes for content (it is never compared).
    static let separatorPixel: UInt32 = UInt32(littleEndian: 0xFF80_8080)

    /// The stitched image's height: down to the bottom of the last capture.
    var height: Int { offsets[offsets.count - 1] + heights[heights.count - 1] }

    /// Each capture's viewport in the stitched image (top-left origin), fixed bars included.
    var captureRects: [Rect] {
        zip(offsets, heights).map { Rect(x: 0, y: Double($0), width: Double(width), height: Double($1)) }
    }

    /// The rows of the stitched image that capture `i`'s scrolling region shows.
    func scrollingRows(of i: Int) -> Range<Int> {
        let lo = offsets[i] + header
        return lo..<max(lo, offsets[i] + heights[i] - footer)
    }

    /// For each capture, the stitched rows it contributes (between the header and footer rows).
    func bands() -> [Range<Int>] {
        let n = offsets.count
        let top = min(header, height), bottom = max(top, height - footer)
        var seams = [top]
        for i in 1..<max(1, n) where n > 1 {
            let previous = scrollingRows(of: i - 1), next = scrollingRows(of: i)
            let seam = previous.upperBound >= next.lowerBound
                ? (next.lowerBound + previous.upperBound) / 2
                : next.lowerBound
            seams.append(min(bottom, max(seams[seams.count - 1], seam)))
        }
        seams.append(bottom)
        return (0..<n).map { seams[$0]..<seams[$0 + 1] }
    }

    /// Stitched rows that no capture shows (only possible with given offsets that leave gaps), the
    /// separators aside.
    func uncoveredRows() -> Int {
        let top = min(header, height), bottom = max(top, height - footer)
        var covered = [Bool](repeating: false, count: bottom - top)
        for rows in separators {
            for y in rows.clamped(to: top..<bottom) { covered[y - top] = true }
        }
        for i in offsets.indices {
            let rows = scrollingRows(of: i).clamped(to: top..<bottom)
            for y in rows { covered[y - top] = true }
        }
        return covered.filter { !$0 }.count
    }

    /// For each stitched row, the capture it is copied from (its row there is `y - offsets[i]`),
    /// `separator` for a separator row, or -1 for a row no capture shows (left transparent). The header rows come from the first
    /// capture, the footer rows from the last, each band from its capture; a row left over comes
    /// from the first capture whose scrolling region shows it. Captures are needed in order, each
    /// for one run of rows, except with given offsets that leave rows to an earlier capture.
    func rowOrigins() -> [Int32] {
        let total = height
        var origins = [Int32](repeating: -1, count: total)
        func take(_ i: Int, rows: Range<Int>) {
            for y in rows where y >= 0 && y < total {
                let sy = y - offsets[i]
                guard sy >= 0, sy < heights[i] else { continue }
                origins[y] = Int32(i)
            }
        }
        take(0, rows: 0..<min(header, total))
        take(offsets.count - 1, rows: max(0, total - footer)..<total)
        for (i, band) in bands().enumerated() {
            take(i, rows: band.clamped(to: scrollingRows(of: i)))
        }
        for y in 0..<total where origins[y] < 0 {
            if let i = offsets.indices.first(where: { scrollingRows(of: $0).contains(y) }) { origins[y] = Int32(i) }
        }
        for rows in separators {
            for y in rows.clamped(to: 0..<total) { origins[y] = StitchLayout.separator }
        }
        return origins
    }

    /// The origin of a separator row in `rowOrigins`.
    static let separator: Int32 = -2

    /// Writes the stitched rows top to bottom, row `y` to `row(y)` (`width * 4` bytes), copied from
    /// `captures` (in page order). Before each run of at most `rowsPerRun` rows it calls `room` with
    /// the number of rows written once the run is done, and `written` after the run; a capture is
    /// let go as soon as its last row is copied.
    func writeRows(_ captures: consuming [CaptureRows.Source], profile: [UInt8]?, rowsPerRun: Int = 64,
                   into rowAddress: (Int) -> UnsafeMutablePointer<UInt8>,
                   room: (Int) throws -> Void = { _ in }, written: (Int) -> Void = { _ in }) throws {
        let stride = width * 4
        let origins = rowOrigins()
        var source = CaptureRows(consume captures, origins: origins, profile: profile)
        var y = 0
        while y < origins.count {
            let end = min(origins.count, y + max(1, rowsPerRun))
            try room(end)
            for row in y..<end {
                let target = rowAddress(row)
                let origin = Int(origins[row])
                guard origin >= 0 else {
                    let buffer = UnsafeMutableBufferPointer(start: target, count: stride)
                    if origin == StitchLayout.separator {
                        buffer.withMemoryRebound(to: UInt32.self) { $0.update(repeating: StitchLayout.separatorPixel) }
                    } else {
                        buffer.update(repeating: 0)
                    }
                    continue
                }
                try source.copyRow(row - offsets[origin], of: origin, into: target)
            }
            source.letGo(before: end)
            written(end)
            y = end
        }
    }
}
