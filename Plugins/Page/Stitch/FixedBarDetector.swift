import SumiKit

/// Finds the fixed bars of a set of captures: rows at the top (header) or bottom (footer) that are
/// the same in every capture, as a sticky navigation bar or tab bar is while the content scrolls.
///
/// A row counts as the same when its inner pixels are identical in every capture, or — for lossy
/// captures — differ by at most `tolerance` on average per channel. A bar may hold a few rows that
/// change (a status bar's clock): the bar ends at the last unchanged row such that at least
/// `minimumFixedShare` of the rows above it are unchanged. Where a bar meets the scrolling content,
/// lossy compression mixes the two within a block of pixels, so a few more rows (up to `blockRows`)
/// are then accepted with the looser `edgeTolerance`.
///
/// Which rows are the same is gathered capture by capture (`FixedRows.Accumulator`), so the captures
/// need not be in memory together.
struct FixedBarDetector {
    /// Mean absolute difference per channel below which a row counts as unchanged.
    static let tolerance = 2.5
    /// The same near a bar's edge, for at most `blockRows` rows.
    static let edgeTolerance = 12.0
    var blockRows = 16
    var minimumFixedShare = 0.8

    /// Rows counted from the top, and from the bottom, that are the same in every capture.
    let top: FixedRows
    let bottom: FixedRows

    init(top: FixedRows, bottom: FixedRows) {
        self.top = top
        self.bottom = bottom
    }

    /// The detector for captures in memory together.
    init(captures: [Image], profiles: [CaptureProfile]) {
        var rows = FixedRows.Accumulator(first: captures[0], profiles[0], share: (1, 1))
        for (capture, profile) in zip(captures, profiles).dropFirst() { rows.add(capture, profile) }
        self = rows.detector
    }

    /// The header height in rows, at most `limit`.
    func header(limit: Int) -> Int { bar(limit: limit, rows: top) }

    /// The footer height in rows, at most `limit`.
    func footer(limit: Int) -> Int { bar(limit: limit, rows: bottom) }

    private func bar(limit: Int, rows fixedRows: FixedRows) -> Int {
        let limit = min(limit, fixedRows.count)
        var rows = 0
        var fixed = 0
        // Past this many changed rows no bar within `limit` can have the share of unchanged rows.
        let changedLimit = Int((1 - minimumFixedShare) * Double(limit))
        for r in 0..<max(0, limit) {
            guard fixedRows.same[r] else {
                if r + 1 - fixed > changedLimit { break }
                continue
            }
            fixed += 1
            if Double(fixed) >= minimumFixedShare * Double(r + 1) { rows = r + 1 }
        }
        guard rows > 0 else { return 0 }
        let close = rows
        while rows < min(limit, close + blockRows), fixedRows.nearlySame[rows] {
            rows += 1
        }
        return rows
    }
}
