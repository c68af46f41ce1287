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
struct FixedBarDetector {
    let captures: [Image]
    let profiles: [CaptureProfile]
    /// Mean absolute difference per channel below which a row counts as unchanged.
    var tolerance = 2.5
    /// The same near a bar's edge, for at most `blockRows` rows.
    var edgeTolerance = 12.0
    var blockRows = 16
    var minimumFixedShare = 0.8

    /// The header height in rows, at most `limit`.
    func header(limit: Int) -> Int { bar(limit: limit, fromBottom: false) }

    /// The footer height in rows, at most `limit`.
    func footer(limit: Int) -> Int { bar(limit: limit, fromBottom: true) }

    private func bar(limit: Int, fromBottom: Bool) -> Int {
        var rows = 0
        var fixed = 0
        // Past this many changed rows no bar within `limit` can have the share of unchanged rows.
        let changedLimit = Int((1 - minimumFixedShare) * Double(limit))
        for r in 0..<max(0, limit) {
            guard isFixed(row: r, fromBottom: fromBottom, tolerance: tolerance) else {
                if r + 1 - fixed > changedLimit { break }
                continue
            }
            fixed += 1
            if Double(fixed) >= minimumFixedShare * Double(r + 1) { rows = r + 1 }
        }
        guard rows > 0 else { return 0 }
        let close = rows
        while rows < min(limit, close + blockRows), isFixed(row: rows, fromBottom: fromBottom, tolerance: edgeTolerance) {
            rows += 1
        }
        return rows
    }

    /// Whether row `index` (counted from the top, or from the bottom) is the same in every capture.
    private func isFixed(row index: Int, fromBottom: Bool, tolerance: Double) -> Bool {
        guard captures.count > 1 else { return false }
        let first = captures[0], firstProfile = profiles[0]
        let y0 = fromBottom ? first.height - 1 - index : index
        let columns = firstProfile.innerStart..<firstProfile.innerEnd
        for i in 1..<captures.count {
            let y = fromBottom ? captures[i].height - 1 - index : index
            if profiles[i].rowHashes[y] == firstProfile.rowHashes[y0] { continue }
            if CaptureProfile.rowDifference(first, row: y0, captures[i], row: y, columns: columns) > tolerance {
                return false
            }
        }
        return true
    }
}
