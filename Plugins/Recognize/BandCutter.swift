/// Where a streamed page is cut into bands for recognition, decided row by row as the rows arrive.
///
/// A band ends, once it holds at least `shortest` rows, in the middle of the lowest run of at least
/// `gap` blank rows (no ink: no text line crosses it), and the next band starts there. A band that
/// reaches `tallest` rows without such a run ends there, and the next one starts `overlap` rows
/// higher: each band then keeps only the lines whose centre lies on its side of the middle of the
/// overlap, which holds every line up to `overlap` rows tall whole in the band that keeps it.
struct BandCutter: Equatable {
    /// A band's rows and the rows whose lines it keeps (absolute page rows).
    struct Band: Equatable {
        var rows: Range<Int>
        var keeps: Range<Int>
    }

    let shortest: Int
    let tallest: Int
    let overlap: Int
    let gap: Int
    /// The page's height when known: a band that fills up at the last row keeps to the end.
    let height: Int?

    /// The first row of the band in progress and the first row whose lines it keeps.
    private(set) var top = 0
    private(set) var keepsFrom = 0
    /// The rows added so far.
    private(set) var added = 0
    /// The current run of blank rows (its first row), and the middle of the lowest run of at least
    /// `gap` blank rows seen since `top + shortest`.
    private var blankFrom: Int?
    private var cut: Int?

    init(shortest: Int = 600, tallest: Int = 1200, overlap: Int = 240, gap: Int = 6, height: Int? = nil) {
        precondition(shortest > 0 && shortest <= tallest && overlap < shortest && gap > 0, "band sizes")
        self.shortest = shortest; self.tallest = tallest; self.overlap = overlap; self.gap = gap; self.height = height
    }

    /// The same cuts for a page of `height` rows.
    func forHeight(_ height: Int) -> BandCutter {
        BandCutter(shortest: shortest, tallest: tallest, overlap: overlap, gap: gap, height: height)
    }

    /// Adds the next row; returns the band that ends with it, if one does. The band's rows
    /// may start above the rows still held by the caller only by `overlap`.
    mutating func add(blank: Bool) -> Band? {
        let y = added
        added += 1
        if blank {
            if blankFrom == nil { blankFrom = y }
            if let from = blankFrom, y + 1 - from >= gap, (from + y + 1) / 2 >= top + shortest { cut = (from + y + 1) / 2 }
        } else {
            blankFrom = nil
        }
        // A run still growing may move its middle lower; a band is cut once the run ended or the
        // band is full.
        if let c = cut, blankFrom == nil || added - top >= tallest {
            let band = Band(rows: top..<c, keeps: keepsFrom..<c)
            top = c; keepsFrom = c; cut = nil
            if let from = blankFrom { blankFrom = max(from, c) }
            return band
        }
        guard added - top >= tallest else { return nil }
        if added == height {
            let band = Band(rows: top..<added, keeps: keepsFrom..<added)
            top = added; keepsFrom = added
            return band
        }
        let end = added, middle = end - overlap / 2
        let band = Band(rows: top..<end, keeps: keepsFrom..<middle)
        top = end - overlap; keepsFrom = middle; cut = nil
        blankFrom = blank ? y : nil
        return band
    }

    /// The last band, once every row was added (nil for an empty page).
    mutating func finish() -> Band? {
        guard added > top else { return nil }
        let band = Band(rows: top..<added, keeps: keepsFrom..<added)
        top = added; keepsFrom = added
        return band
    }
}
