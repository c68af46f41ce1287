/// Greedy line filling over grapheme clusters: each line takes as many clusters as fit in the width
/// and ends at the last break opportunity that fits. Spaces at a line's end hang past the edge
/// (they are not drawn). A soft-hyphen break counts the hyphen it shows. When no opportunity fits,
/// the line is broken anyway after the last cluster that fits (CSS `overflow-wrap: anywhere`), so no
/// line is wider than the width unless one cluster alone is (in Thai and other scripts written
/// without spaces, at a boundary `OverlongWordSplitter` finds inside the word); only one
/// ideographic comma or full stop (、。，．) may hang past the edge, as JLREQ allows, when the line
/// breaks right after it. A line whose first cluster alone is wider than the width also takes the
/// clusters after it that may not start a line (and the one an opening bracket needs), and the spaces
/// after it: kinsoku holds at any width, and no line is spaces alone.
struct LineFitter {
    /// The advance of each cluster.
    let widths: [Double]
    /// `opportunities[i]`: whether a line may start at cluster `i` (index 0 unused).
    let opportunities: [Bool]
    /// Clusters that hang at a line's end without counting: spaces.
    let isSpace: [Bool]
    /// Clusters that are a soft hyphen: a break after one adds `hyphenWidth`.
    let isSoftHyphen: [Bool]
    /// Clusters that may hang past the edge: 、。，．
    let mayHang: [Bool]
    /// Kinsoku flags of each cluster (1: should not start a line, 2: should not end one), which an
    /// emergency break respects where it can.
    let kinsoku: [Int32]
    let hyphenWidth: Double
    let maxWidth: Double
    /// Where a word too long for a line is cut in scripts written without spaces (else: after any
    /// cluster).
    var wordSplitter: OverlongWordSplitter?
    /// Which clusters are tabs, and the stops they reach to (a tab's width depends on where it starts).
    var tabs: (isTab: [Bool], stops: TabStops)?

    private var limit: Double { maxWidth + 1e-6 }

    /// The next line from cluster `start`, ending no later than `maxEnd` (a shorter bound lets the
    /// caller retry when a line shaped whole is wider than the sum of its clusters).
    func nextLine(from start: Int, maxEnd: Int? = nil) -> Range<Int> {
        let n = min(widths.count, maxEnd ?? widths.count)
        guard start < n else { return start..<max(start, n) }
        var x = 0.0
        // Width without trailing spaces.
        var inked = 0.0
        var lastFit: Int?
        var i = start
        while i < n {
            if i > start && opportunities[i] {
                let shown = inked + (isSoftHyphen[i - 1] ? hyphenWidth : 0)
                if shown <= limit { lastFit = i }
            }
            if let tabs, tabs.isTab[i] { x = tabs.stops.next(after: x) } else { x += widths[i] }
            if !isSpace[i] { inked = x }
            if inked > limit && i > start { break }
            i += 1
        }
        if i >= n {
            // The rest fits, or the bound was reached: end at the bound if it is an opportunity.
            if n == widths.count || opportunities[n] { return start..<n }
            if let lastFit { return start..<lastFit }
            return start..<(wordSplitter?.end(from: start, overflowingAt: n) ?? n)
        }
        // Cluster `i` overflows. One 、 or 。 may hang when a break follows it.
        if mayHang[i], inked - widths[i] <= limit, i + 1 == widths.count || opportunities[i + 1] {
            return start..<(i + 1)
        }
        if let lastFit { return start..<lastFit }
        if i > start + 1, let end = wordSplitter?.end(from: start, overflowingAt: i) { return start..<end }
        // Emergency break: after the last cluster that fits (at least one per line), where the
        // next line does not start with closing punctuation and this one not end with an opening one.
        var e = i
        while e > start + 1 && (kinsoku[e] & 1 != 0 || kinsoku[e - 1] & 2 != 0) { e -= 1 }
        if e > start + 1 { return start..<e }
        guard widths[start] > limit else { return start..<max(start + 1, i) }
        // The first cluster alone is wider than the line (a width narrower than one glyph): the line
        // overflows anyway, and runs on until a cluster may start the next one, so no line starts
        // with 。 or 、 nor ends with 「, and the spaces after it hang at its end (no break comes
        // before a space: the next line would be those spaces alone).
        e = start + 1
        while e < n && (isSpace[e] || kinsoku[e] & 1 != 0 || kinsoku[e - 1] & 2 != 0) { e += 1 }
        return start..<e
    }

    /// All lines of the paragraph.
    func lines() -> [Range<Int>] {
        guard !widths.isEmpty else { return [0..<0] }
        var result: [Range<Int>] = []
        var start = 0
        while start < widths.count {
            let line = nextLine(from: start)
            result.append(line)
            start = line.upperBound
        }
        return result
    }

    /// Whether a scalar is a space that hangs at a line's end.
    static func isSpace(_ v: UInt32) -> Bool {
        switch v {
        case 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200B, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Whether a scalar may hang past the edge (JLREQ's hanging punctuation).
    static func mayHang(_ v: UInt32) -> Bool {
        v == 0x3001 || v == 0x3002 || v == 0xFF0C || v == 0xFF0E || v == 0xFF61 || v == 0xFF64
    }
}
