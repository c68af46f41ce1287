/// Where a page's strips begin and end, decided row by row as the rows come.
///
/// With `auto` a run of photo rows becomes a JPEG strip once it is `minimumPhotoRows` tall (the
/// hysteresis: a few photo-like rows do not make a strip of their own but stay in the lossless strip
/// around them) and ends at the first row that is not photo, which starts a lossless strip: a row
/// that is not photo is never in a JPEG strip, and text beside a photo's first or last rows keeps a
/// strip of its own (a palette, often). `lossless` and `jpeg` make strips of one kind. No strip is
/// taller than `maximumRows` (a multiple of 16: `jpeg`'s strips are whole 4:2:0 MCUs but the last),
/// which bounds the rows held.
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
    static let maximumRows = 256

    let mode: Mode
    /// Rows of the strip in progress, including a photo tail not yet promoted.
    private(set) var rows = 0
    private var jpeg = false
    /// Rows at the end of a lossless strip in progress that are photo rows.
    private var tail = 0
    /// What the rows of the strip in progress before its tail showed.
    private var head: RowContent?

    init(mode: Mode) { self.mode = mode }

    /// Adds the next `count` rows, all showing `content`; returns the strips this finishes, in order.
    mutating func add(rows count: Int, content: RowContent) -> [Cut] {
        var cuts: [Cut] = []
        for _ in 0..<count { addRow(content, into: &cuts) }
        return cuts
    }

    private mutating func addRow(_ content: RowContent, into cuts: inout [Cut]) {
        let photo = mode == .jpeg || (mode == .auto && content == .photo)
        if rows == 0 && mode == .jpeg { jpeg = true }
        if jpeg {
            if photo {
                if rows == StripPlanner.maximumRows {
                    cuts.append(emit(rows))
                    jpeg = true
                }
                rows += 1
                head = merge(head, content)
                return
            }
            cuts.append(emit(rows))
        }
        if rows == StripPlanner.maximumRows && rows > tail {
            cuts.append(emit(rows - tail))
        }
        rows += 1
        if photo {
            tail += 1
            if tail >= StripPlanner.minimumPhotoRows {
                if rows > tail { cuts.append(emit(rows - tail)) }
                jpeg = true
                head = .photo
                tail = 0
            }
        } else {
            head = merge(merge(head, tail > 0 ? .photo : nil), content)
            tail = 0
        }
    }

    /// The last strip, once every row was added (nil for an empty page).
    mutating func finish() -> Cut? {
        rows > 0 ? emit(rows) : nil
    }

    /// Cuts the first `count` rows of the strip in progress: all of it, or (lossless) all but its
    /// photo tail, which starts the next strip.
    private mutating func emit(_ count: Int) -> Cut {
        let all = count == rows
        let content = merge(head, all && tail > 0 ? .photo : nil) ?? .plain
        let cut = Cut(rows: count, jpeg: jpeg, content: content)
        rows -= count
        if all {
            jpeg = false
            head = nil
            tail = 0
        } else {
            head = .photo
        }
        return cut
    }

    private func merge(_ a: RowContent?, _ b: RowContent?) -> RowContent? {
        guard let a else { return b }
        guard let b, a != b else { return a }
        return .mixed
    }
}
