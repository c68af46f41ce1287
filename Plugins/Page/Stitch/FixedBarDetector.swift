import SumiKit

/// Finds the fixed bars of a set of captures: rows at the top (header) or bottom (footer) that are
/// the same in every capture, as a sticky navigation bar or tab bar is while the content scrolls.
///
/// A row counts as the same when its inner pixels are identical in every capture, or — for lossy
/// captures — differ by at most `tolerance` on average per channel.
struct FixedBarDetector {
    let captures: [Image]
    let profiles: [CaptureProfile]
    /// Mean absolute difference per channel below which a row still counts as unchanged.
    var tolerance = 2.5

    /// The header height in rows, at most `limit`.
    func header(limit: Int) -> Int {
        var rows = 0
        while rows < limit, isFixed(row: rows, fromBottom: false) { rows += 1 }
        return rows
    }

    /// The footer height in rows, at most `limit`.
    func footer(limit: Int) -> Int {
        var rows = 0
        while rows < limit, isFixed(row: rows, fromBottom: true) { rows += 1 }
        return rows
    }

    /// Whether row `index` (counted from the top, or from the bottom) is the same in every capture.
    private func isFixed(row index: Int, fromBottom: Bool) -> Bool {
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
