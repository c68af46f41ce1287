/// What one row of a page shows, measured from its pixels, for `compression: auto`.
///
/// A photo changes from one pixel to the next almost everywhere (light, texture, sensor grain); text,
/// UI and flat colour are runs of equal pixels broken by short edges (an antialiased stroke is a few
/// pixels wide, and letters stand apart). So a row is measured by its runs of changing pixels (a
/// pixel unlike its left neighbour; up to `gap` equal pixels in a row do not end a run): runs of at
/// least `photoRun` pixels are photo, and the span from the first such run to the last is where the
/// photo lies. The row is
/// - `photo` when such runs cover at least a quarter of the row and nothing changes outside their
///   span, nor in a wide gap between them (two photos side by side with white between are one span);
/// - `mixed` when it has photo runs and other detail beside them (a photo beside a column of text);
/// - `plain` otherwise (text, UI, flat colour), and always when a pixel is not opaque.
enum RowContent: String, Sendable, Equatable {
    case plain, mixed, photo

    /// The shortest run of changing pixels counted as photo.
    static let photoRun = 48
    /// Equal pixels in a row that do not end a run (a photo's flat spot, or chance): 4, as photos
    /// served as JPEG (quality about 80, 4:2:0) leave runs of 3 to 5 equal pixels in a few rows,
    /// which at 2 broke one photo row in thirty into pieces, each such row ending a JPEG strip.
    static let gap = 4

    /// Measures one row of premultiplied RGBA (`width * 4` bytes).
    static func classify(_ row: UnsafeBufferPointer<UInt8>, width: Int) -> RowContent {
        guard width >= 2, row.count >= width * 4, let base = row.baseAddress else { return .plain }
        return UnsafeRawPointer(base).withMemoryRebound(to: UInt32.self, capacity: width) { px -> RowContent in
            for x in 0..<width where px[x] >> 24 != 255 { return .plain }
            // First pass: the photo runs, and their span.
            var photoPixels = 0, spanStart = Int.max, spanEnd = -1
            forEachRun(px, width: width) { start, end, changes in
                guard end - start >= photoRun else { return }
                photoPixels += changes
                spanStart = min(spanStart, start)
                spanEnd = end
            }
            guard photoPixels * 4 >= width else { return photoPixels > 0 ? .mixed : .plain }
            // Second pass: detail outside the span, or in a wide gap between photo runs.
            var outside = 0, inGap = 0, gapStart = spanStart, mixed = false
            forEachRun(px, width: width) { start, end, changes in
                if end <= spanStart || start >= spanEnd {
                    outside += changes
                } else if end - start >= photoRun {
                    if start - gapStart >= photoRun && inGap * 10 > start - gapStart { mixed = true }
                    gapStart = end
                    inGap = 0
                } else {
                    inGap += changes
                }
            }
            return mixed || outside > 2 ? .mixed : .photo
        }
    }

    /// Calls `body(start, end, changes)` for each run of changing pixels (`start ..< end`, with
    /// `changes` pixels unlike their left neighbour), left to right.
    private static func forEachRun(_ px: UnsafePointer<UInt32>, width: Int, _ body: (Int, Int, Int) -> Void) {
        var start = -1, last = -1, changes = 0
        for x in 1..<width where px[x] != px[x - 1] {
            if start >= 0 && x - last > gap + 1 {
                body(start, last + 1, changes)
                start = -1
            }
            if start < 0 { start = x; changes = 0 }
            last = x
            changes += 1
        }
        if start >= 0 { body(start, last + 1, changes) }
    }
}
