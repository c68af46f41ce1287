/// Where a page's strips begin and end, and which columns of each are JPEG, decided row by row as
/// the rows come.
///
/// With `auto` a run of rows that each have a photo span (`RowContent.Measure`) over common columns
/// becomes a JPEG strip once it is `minimumPhotoRows` tall (the hysteresis: a few photo-like rows
/// do not make a strip of their own but stay in the lossless strip around them). Its JPEG columns
/// (`TileBounds`) hold in every one of its rows that row's photo or the flat colour around it,
/// never other detail; the strip ends by the first row whose photo does not cover them. So a photo
/// beside a column of text is a JPEG tile with lossless tiles of the same rows beside it, and rows
/// without photo are JPEG only when they are one flat colour between a photo and the grid row
/// beside it. `lossless` and `jpeg` make strips of one kind.
///
/// The photo rows at a JPEG strip's top and bottom edge that it cannot take (it begins and ends on
/// the grid) are a lossless strip of their own, one grid step tall: the step holding the photo's
/// first row is cut from the rows above it, and the step holding its last row from the rows below
/// when they are plain (text, UI, flat colour) — so the text beside a photo stays in a strip of few
/// colours (a palette) instead of one of full RGB with the photo's edge. Detail too short for a
/// JPEG strip (a row of small pictures, a gradient) stays in the lossless strip around it.
///
/// Every strip begins on a multiple of `alignment` rows from the page's top, and every tile on a
/// multiple of `alignment` columns (the page's strip grid, `PageGeometry.stripGrid`: whole device
/// pixels at 72, 150 and 300 dpi, so readers that fit images to whole device pixels place every
/// strip as they would the page in one image). A JPEG strip reaches out to the grid rows around its
/// photo when the rows between are one flat colour and so are `flatGuard` rows beyond the grid row
/// (JPEG changes a flat colour other than white or black by a level or so, and the blank rows above
/// and below a line of text's letters are that line's), else keeps inside them (those photo rows
/// stay lossless). No strip is taller than `tallest` (at most `maximumRows`, a multiple of the grid and
/// where it can of 16 too: `jpeg`'s strips are then whole 4:2:0 MCUs but the last), which bounds
/// the rows held (up to `flatGuard` more while the flat rows after a photo show whether its JPEG
/// strip may take them).
struct StripPlanner: Sendable {
    enum Mode: Sendable { case auto, lossless, jpeg }

    /// A finished strip: the first `rows` rows of those not yet cut, the columns that are JPEG (nil
    /// when none; the whole width for a JPEG strip), and what its rows showed (`mixed` when they
    /// differ).
    struct Cut: Sendable, Equatable {
        let rows: Int
        let jpegColumns: Range<Int>?
        let content: RowContent

        var jpeg: Bool { jpegColumns != nil }
    }

    static let minimumPhotoRows = 64
    /// Flat rows kept between a JPEG strip that reaches out over flat rows and any other row.
    static let flatGuard = 12
    static let maximumRows = 240
    /// The grid of a page of 1 pixel a point without `/UserUnit`.
    static let defaultAlignment = 12
    /// The narrowest JPEG tile: narrower photos stay in their lossless strip.
    static let minimumTileColumns = 96

    let mode: Mode
    /// The page's width in pixels.
    let width: Int
    /// Rows (and columns) between the places a strip (a tile) may begin.
    let alignment: Int
    /// The tallest strip: the largest multiple of lcm(`alignment`, 16), else of `alignment`, up to
    /// `maximumRows` (`alignment` when that is taller).
    let tallest: Int
    /// Rows of the strip in progress (it begins on a multiple of `alignment`), including a photo
    /// tail not yet promoted.
    private(set) var rows = 0
    /// The JPEG columns of the strip in progress; nil while it is lossless.
    private var columns: Range<Int>?
    /// What each row of the strip in progress showed, top to bottom.
    private var contents: [RowContent] = []
    /// Rows at the end of a lossless strip in progress that have a photo over common columns
    /// (`tailBounds`), and how many rows of one flat colour came before them.
    private var tail = 0
    private var tailBounds: TileBounds?
    private var flatBeforeTail = 0
    /// Rows of one flat colour (`flatColour`) that end the rows added so far.
    private var flatRows = 0
    private var flatColour: UInt32 = 0
    /// Flat rows at the end of a JPEG strip in progress, after its photo ended: it takes them when
    /// they reach the next grid row.
    private var trailing = 0
    /// Whether the lossless strip in progress began with photo rows a JPEG strip left (its first
    /// grid step is cut from the rows below it if they are plain).
    private var edgeBelowPhoto = false

    init(mode: Mode, width: Int, alignment: Int = StripPlanner.defaultAlignment) {
        self.mode = mode
        self.width = width
        self.alignment = max(1, alignment)
        let a = self.alignment
        var mcu = a
        while mcu % 16 != 0 { mcu += a }
        let limit = StripPlanner.maximumRows
        tallest = mcu <= limit ? limit / mcu * mcu : max(a, limit / a * a)
        contents.reserveCapacity(tallest + 1)
    }

    /// Adds the next `count` rows, all measured as `measure`; returns the strips this finishes, in
    /// order.
    mutating func add(rows count: Int, measure: RowContent.Measure) -> [Cut] {
        var cuts: [Cut] = []
        for _ in 0..<count { addRow(measure, into: &cuts) }
        return cuts
    }

    /// The last strip, once every row was added (nil for an empty page).
    mutating func finish() -> Cut? {
        guard rows > 0 else { return nil }
        tail = 0
        return take(rows)
    }

    private mutating func addRow(_ measure: RowContent.Measure, into cuts: inout [Cut]) {
        switch mode {
        case .jpeg, .lossless:
            if rows == 0 && mode == .jpeg { columns = 0..<width }
            if rows >= tallest { cuts.append(take(rows)) }
            append(measure.content)
        case .auto:
            addAutoRow(measure, into: &cuts)
            if let f = measure.flat {
                flatRows = flatRows > 0 && f == flatColour ? flatRows + 1 : 1
                flatColour = f
            } else {
                flatRows = 0
            }
        }
    }

    private mutating func addAutoRow(_ measure: RowContent.Measure, into cuts: inout [Cut]) {
        let a = alignment
        let bounds = TileBounds(measure)
        if let c = columns {
            if trailing == 0, let bounds, bounds.admits(c) {
                if rows >= tallest { cuts.append(take(rows)) }
                append(measure.content)
                return
            }
            // A flat row after the photo: the strip takes the flat rows up to the next grid row if
            // they go on `flatGuard` rows past it (those rows stay lossless).
            if let f = measure.flat, trailing == 0 ? rows % a != 0 : f == flatColour {
                trailing += 1
                append(.plain)
                let end = (rows - trailing + a - 1) / a * a
                if rows - end == StripPlanner.flatGuard {
                    cuts.append(take(end))
                    columns = nil
                    trailing = 0
                }
                return
            }
            // The JPEG strip ends on the last grid row before its photo did; the rows after it go
            // lossless (photo over its columns, or flat).
            let keep = (rows - trailing) / a * a
            if keep > 0 { cuts.append(take(keep)) }
            edgeBelowPhoto = rows > 0
            columns = nil
            trailing = 0
            tail = 0
            tailBounds = nil
        }
        if rows >= tallest {
            let cut = (rows - tail) / a * a
            if cut > 0 { cuts.append(take(cut)) }
        }
        append(measure.content)
        if edgeBelowPhoto && rows == 2 * a {
            // The step after the photo's last rows: cut them apart if it is plain.
            if contentChange(endingAt: rows) != nil { cuts.append(take(a)) }
            edgeBelowPhoto = false
        }
        guard let bounds else {
            tail = 0
            tailBounds = nil
            return
        }
        let widened = tailBounds?.adding(bounds)
        let old = tailBounds?.tile(alignment: a, width: width), new = widened?.tile(alignment: a, width: width)
        if tail > 0, let new, old.map({ new.count * 4 >= $0.count * 3 }) ?? true {
            tailBounds = widened
            tail += 1
        } else {
            // A photo over other columns: a new run begins here.
            tailBounds = bounds
            tail = 1
            flatBeforeTail = flatRows
        }
        guard tail >= StripPlanner.minimumPhotoRows, let tile = tailBounds?.tile(alignment: a, width: width) else { return }
        // The JPEG strip begins on the grid row at or before the run when the rows between are
        // one flat colour, as are `flatGuard` rows above it, else on the first grid row inside the
        // run, once that row has come (with a coarse grid it may lie past the run's first
        // `minimumPhotoRows`).
        let start = rows - tail, down = start / a * a
        let first = start == down || flatBeforeTail - (start - down) >= StripPlanner.flatGuard ? down : (start + a - 1) / a * a
        guard first <= rows else { return }
        if first > start && first > a {
            // The step holding the run's first rows, a strip of its own below the rows above.
            cuts.append(take(first - a))
            cuts.append(take(a))
        } else if first > 0 {
            cuts.append(take(first))
        }
        edgeBelowPhoto = false
        columns = tile
        tail = 0
        tailBounds = nil
    }

    /// Where the first `end` rows of the lossless strip in progress (a multiple of the grid) are to
    /// be cut because their last grid step is plain (no row of photo or mixed content) and the step
    /// before it not, or the other way round: the rows before the last step (nil when the two steps
    /// are of one kind or there is no step before).
    private func contentChange(endingAt end: Int) -> Int? {
        let a = alignment
        guard end >= 2 * a, end <= contents.count else { return nil }
        let last = contents[(end - a)..<end].contains { $0 != .plain }
        let before = contents[(end - 2 * a)..<(end - a)].contains { $0 != .plain }
        return last == before ? nil : end - a
    }

    /// Adds a row showing `content` to the strip in progress.
    private mutating func append(_ content: RowContent) {
        rows += 1
        contents.append(content)
    }

    /// Cuts the first `count` rows of the strip in progress, with what they showed.
    private mutating func take(_ count: Int) -> Cut {
        rows -= count
        let shown = contents[..<count].dropFirst().reduce(contents.first ?? .plain) { $0 == $1 ? $0 : .mixed }
        contents.removeFirst(count)
        return Cut(rows: count, jpegColumns: columns, content: shown)
    }
}
