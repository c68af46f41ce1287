/// Where a page's strips begin and end, decided row by row as the rows come.
///
/// With `auto` a run of photo rows becomes a JPEG strip once it is `minimumPhotoRows` tall (the
/// hysteresis: a few photo-like rows do not make a strip of their own but stay in the lossless strip
/// around them) and ends by the first row that is not photo: a row that is not photo is never in a
/// JPEG strip, nor is a row less than `guardRows` from one. `lossless` and `jpeg` make strips of one
/// kind. Every strip begins on a multiple of `alignment` rows from the page's top (the page's strip
/// grid, `PageGeometry.stripGrid`: whole device pixels at 72, 150 and 300 dpi, so readers that fit
/// images to whole device pixels place every strip as they would the page in one image): a photo
/// run's first and last few rows then stay lossless. No strip is taller than `tallest` (at most
/// `maximumRows`, a multiple of the grid and where it can of 16 too: `jpeg`'s strips are then whole
/// 4:2:0 MCUs but the last), which bounds the rows held.
struct StripPlanner: Sendable {
    enum Mode: Sendable { case auto, lossless, jpeg }

    /// A finished strip: the first `rows` rows of those not yet cut, whether it is JPEG, and what its
    /// rows showed (`mixed` when they differ).
    struct Cut: Sendable, Equatable {
        let rows: Int
        let jpeg: Bool
        let content: RowContent
    }

    static let minimumPhotoRows = 64
    static let maximumRows = 240
    /// The grid of a page of 1 pixel a point without `/UserUnit`.
    static let defaultAlignment = 12
    /// Photo rows kept lossless next to other rows: a line of text's box has blank rows above and
    /// below its letters, which look like photo rows beside a photo.
    static let guardRows = 12

    let mode: Mode
    /// Rows between the places a strip may begin.
    let alignment: Int
    /// The tallest strip: the largest multiple of lcm(`alignment`, 16), else of `alignment`, up to
    /// `maximumRows` (`alignment` when that is taller).
    let tallest: Int
    /// Rows of the strip in progress (it begins on a multiple of `alignment`), including a photo
    /// tail not yet promoted.
    private(set) var rows = 0
    private var jpeg = false
    /// Rows at the end of a lossless strip in progress that are photo rows.
    private var tail = 0
    /// What the rows of the strip in progress before its tail showed.
    private var head: RowContent?

    init(mode: Mode, alignment: Int = StripPlanner.defaultAlignment) {
        self.mode = mode
        self.alignment = max(1, alignment)
        let a = self.alignment
        var mcu = a
        while mcu % 16 != 0 { mcu += a }
        let limit = StripPlanner.maximumRows
        tallest = mcu <= limit ? limit / mcu * mcu : max(a, limit / a * a)
    }

    /// Adds the next `count` rows, all showing `content`; returns the strips this finishes, in order.
    mutating func add(rows count: Int, content: RowContent) -> [Cut] {
        var cuts: [Cut] = []
        for _ in 0..<count { addRow(content, into: &cuts) }
        return cuts
    }

    /// The last strip, once every row was added (nil for an empty page).
    mutating func finish() -> Cut? {
        guard rows > 0 else { return nil }
        return take(rows, content: merge(head, tail > 0 ? .photo : nil) ?? .plain)
    }

    private mutating func addRow(_ content: RowContent, into cuts: inout [Cut]) {
        let a = alignment
        let photo = mode == .jpeg || (mode == .auto && content == .photo)
        if rows == 0 && mode == .jpeg { jpeg = true }
        if jpeg {
            if photo {
                if rows >= tallest {
                    cuts.append(take(rows, content: head ?? .photo))
                    head = nil
                }
                rows += 1
                head = merge(head, content)
                return
            }
            // The JPEG strip ends on the last aligned row `guardRows` before this one; the photo
            // rows after it go lossless.
            let keep = max(0, rows - StripPlanner.guardRows) / a * a
            if keep > 0 { cuts.append(take(keep, content: head ?? .photo)) }
            jpeg = false
            head = rows > 0 ? .photo : nil
            tail = 0
        }
        if rows >= tallest {
            let before = rows - tail, cut = before / a * a
            if cut > 0 {
                cuts.append(take(cut, content: head ?? .plain))
                head = tail > 0 ? (before > cut ? .mixed : nil) : (before > cut ? head : nil)
            }
        }
        rows += 1
        if photo {
            tail += 1
            // The JPEG strip begins on the first aligned row `guardRows` into the run, once that
            // row has come (with a coarse grid it may lie past the run's first `minimumPhotoRows`).
            let start = rows - tail, first = (start + StripPlanner.guardRows + a - 1) / a * a
            if tail >= StripPlanner.minimumPhotoRows && first <= rows {
                if first > 0 { cuts.append(take(first, content: merge(head, first > start ? .photo : nil) ?? .photo)) }
                jpeg = true
                head = .photo
                tail = 0
            }
        } else {
            head = merge(merge(head, tail > 0 ? .photo : nil), content)
            tail = 0
        }
    }

    /// Cuts the first `count` rows of the strip in progress.
    private mutating func take(_ count: Int, content: RowContent) -> Cut {
        rows -= count
        return Cut(rows: count, jpeg: jpeg, content: content)
    }

    private func merge(_ a: RowContent?, _ b: RowContent?) -> RowContent? {
        guard let a else { return b }
        guard let b, a != b else { return a }
        return .mixed
    }
}
