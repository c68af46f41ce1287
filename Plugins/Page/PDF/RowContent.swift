/// What one row of a page shows, measured from its pixels, for `compression: auto`.
///
/// A photo changes from one pixel to the next almost everywhere (light, texture, sensor grain); text,
/// UI and flat colour are runs of equal pixels broken by short edges (an antialiased stroke is a few
/// pixels wide, and letters stand apart). So a row is measured by its runs of changing pixels (a
/// pixel unlike its left neighbour; up to `gap` equal pixels in a row do not end a run): runs of at
/// least `photoRun` pixels, three in four of them changes, are photo (letters set close together
/// make long runs too, but at most two in three of their pixels change), and so is a shorter run
/// within `joinGap` pixels of one (a photo's own flat spot near its edge, which would otherwise look
/// like detail beside it; one such run on each side of a photo run, so a line of text near a photo
/// is not taken in letter by letter). The span from the first photo run to the last is where the photo lies. The row is
/// - `photo` when such runs cover at least a quarter of the row and nothing changes outside their
///   span, nor in a wide gap between them (two photos side by side with white between are one span);
/// - `mixed` when it has photo runs and other detail beside them (a photo beside a column of text);
/// - `plain` otherwise (text, UI, flat colour), and always when a pixel is not opaque.
enum RowContent: String, Sendable, Equatable {
    case plain, mixed, photo

    /// A row's content and, when a photo can be cut out of it, the columns its photo spans.
    struct Measure: Sendable, Equatable {
        let content: RowContent
        /// The photo's columns (from the pixel before its first change to its last changing pixel):
        /// given for `photo` rows, and for `mixed` rows whose detail lies outside the span and whose
        /// span changes at three pixels in four at least (letters set close together make long
        /// runs too, but of fewer changes).
        let span: Range<Int>?
        /// With `span`, the columns around it where nothing else changes: flat colour continuing
        /// the pixels beside the photo, up to the nearest other detail or the row's ends.
        let clear: Range<Int>?
        /// The row's colour (straight RGBA in memory order) when all its pixels are equal.
        let flat: UInt32?

        init(_ content: RowContent, span: Range<Int>? = nil, clear: Range<Int>? = nil, flat: UInt32? = nil) {
            self.content = content
            self.span = span
            self.clear = span == nil ? nil : (clear ?? span)
            self.flat = flat
        }
    }

    /// The shortest run of changing pixels counted as photo.
    static let photoRun = 48
    /// Equal pixels in a row that do not end a run (a photo's flat spot, or chance): 4, as photos
    /// served as JPEG (quality about 80, 4:2:0) leave runs of 3 to 5 equal pixels in a few rows,
    /// which at 2 broke one photo row in thirty into pieces, each such row ending a JPEG strip.
    static let gap = 4
    /// The widest flat stretch between a photo run and a shorter run that still belongs to the
    /// photo: served photos leave 5 to 7 equal pixels near their edges in about one row in two
    /// hundred, after which a few dozen pixels of the same photo looked like detail beside it.
    /// Text set closer than this to a photo would be taken for it (one run, a letter or a few).
    static let joinGap = 8

    /// Measures one row of premultiplied RGBA (`width * 4` bytes): its content and photo span.
    static func measure(_ row: UnsafeBufferPointer<UInt8>, width: Int) -> Measure {
        guard width >= 2, row.count >= width * 4, let base = row.baseAddress else { return Measure(.plain) }
        return UnsafeRawPointer(base).withMemoryRebound(to: UInt32.self, capacity: width) { px -> Measure in
            for x in 0..<width where px[x] >> 24 != 255 { return Measure(.plain) }
            // First pass: the photo runs, and their span.
            var photoPixels = 0, spanStart = Int.max, spanEnd = -1, runs = 0
            forEachRun(px, width: width) { start, end, changes, photo in
                runs += 1
                guard photo else { return }
                photoPixels += changes
                spanStart = min(spanStart, start)
                spanEnd = end
            }
            if runs == 0 { return Measure(.plain, flat: px[0]) }
            guard spanEnd >= 0 else { return Measure(.plain) }
            // Second pass: detail outside the span, or in a wide gap between photo runs; the flat
            // columns on either side of the span.
            var outside = 0, inGap = 0, gapStart = spanStart, mixed = false
            var clearStart = 0, clearEnd = width
            forEachRun(px, width: width) { start, end, changes, photo in
                if end <= spanStart || start >= spanEnd {
                    outside += changes
                    // A change at x makes pixel x differ from x - 1: the last pixel of a run
                    // before the span is the first of the flat stretch that reaches the photo.
                    if end <= spanStart { clearStart = end - 1 } else { clearEnd = min(clearEnd, start) }
                } else if photo {
                    if start - gapStart >= photoRun && inGap * 10 > start - gapStart { mixed = true }
                    gapStart = end
                    inGap = 0
                } else {
                    inGap += changes
                }
            }
            let span = (spanStart - 1)..<spanEnd, clear = clearStart..<clearEnd
            if mixed { return Measure(.mixed) }
            if photoPixels * 4 >= width && outside <= 2 { return Measure(.photo, span: span, clear: clear) }
            guard photoPixels * 4 >= span.count * 3 else { return Measure(.mixed) }
            return Measure(.mixed, span: span, clear: clear)
        }
    }

    /// Calls `body(start, end, changes, photo)` for each run of changing pixels (`start ..< end`,
    /// with `changes` pixels unlike their left neighbour), left to right; `photo` for runs of at
    /// least `photoRun` pixels, three in four of them changes, and for the one shorter run on each side of such a run that lies
    /// within `joinGap` of it.
    private static func forEachRun(_ px: UnsafePointer<UInt32>, width: Int, _ body: (Int, Int, Int, Bool) -> Void) {
        // A short run waits for the next run: it joins a photo run that begins close after it.
        var pending: (start: Int, end: Int, changes: Int)?
        var photoEnd = Int.min / 2, joined = true
        func run(_ start: Int, _ end: Int, _ changes: Int) {
            if end - start >= photoRun && changes * 4 >= (end - start) * 3 {
                if let p = pending { body(p.start, p.end, p.changes, start - p.end <= joinGap) }
                pending = nil
                body(start, end, changes, true)
                photoEnd = end
                joined = false
                return
            }
            if let p = pending { body(p.start, p.end, p.changes, false) }
            pending = nil
            if !joined && start - photoEnd <= joinGap {
                body(start, end, changes, true)
                joined = true
            } else {
                pending = (start, end, changes)
            }
        }
        var start = -1, last = -1, changes = 0
        for x in 1..<width where px[x] != px[x - 1] {
            if start >= 0 && x - last > gap + 1 {
                run(start, last + 1, changes)
                start = -1
            }
            if start < 0 { start = x; changes = 0 }
            last = x
            changes += 1
        }
        if start >= 0 { run(start, last + 1, changes) }
        if let p = pending { body(p.start, p.end, p.changes, false) }
    }
}
