/// Where a page's strips begin and end, decided block by block (`blockRows` rows) as the rows come.
///
/// With `auto` a run of photo blocks becomes a JPEG strip once it is `minimumPhotoRows` tall (the
/// hysteresis: a few photo-like rows do not make a strip of their own but stay in the lossless strip
/// around them) and ends at the first block that is not photo through and through, which starts a
/// lossless strip: a row that is not photo is never in a JPEG strip. `lossless` and `jpeg` make
/// strips of one kind. No strip is taller than `maximumRows`, which bounds the rows held. JPEG strips
/// begin on a block boundary and, but for the page's last, are whole blocks tall (16 rows: whole
/// 4:2:0 MCUs).
struct StripPlanner: Sendable {
    enum Mode: Sendable { case auto, lossless, jpeg }

    /// A finished strip: the first `rows` rows of those not yet cut, whether it is JPEG, and what its
    /// rows showed (`mixed` when they differ).
    struct Cut: Sendable, Equatable {
        let rows: Int
        let jpeg: Bool
        let content: RowContent
    }

    static let blockRows = 16
    static let minimumPhotoRows = 64
    static let maximumRows = 512

    let mode: Mode
    /// Rows of the strip in progress, including a photo tail not yet promoted.
    private(set) var rows = 0
    private var jpeg = false
    /// Rows at the end of a lossless strip in progress that are photo blocks.
    private var tail = 0
    /// What the rows of the strip in progress before its tail showed.
    private var head: RowContent?

    init(mode: Mode) { self.mode = mode }

    /// Adds the next block (`count` rows, `.photo` only when all its rows are); returns the strips
    /// this finishes, in order.
    mutating func add(rows count: Int, content block: RowContent) -> [Cut] {
        var cuts: [Cut] = []
        let photo = mode == .jpeg || (mode == .auto && block == .photo)
        if rows == 0 && mode == .jpeg { jpeg = true }
        if jpeg {
            if photo {
                if rows + count > StripPlanner.maximumRows {
                    cuts.append(emit(rows))
                    jpeg = true
                }
                rows += count
                head = merge(head, block)
                return cuts
            }
            cuts.append(emit(rows))
        }
        if rows + count > StripPlanner.maximumRows && rows > tail {
            cuts.append(emit(rows - tail))
        }
        rows += count
        if photo {
            tail += count
            if tail >= StripPlanner.minimumPhotoRows {
                if rows > tail { cuts.append(emit(rows - tail)) }
                jpeg = true
                head = .photo
                tail = 0
            }
        } else {
            head = merge(merge(head, tail > 0 ? .photo : nil), block)
            tail = 0
        }
        return cuts
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
