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

/// For each row counted from one edge (top or bottom) of the captures: whether it is the same in
/// every capture (`same`, within `FixedBarDetector.tolerance`) and nearly so (`nearlySame`, within
/// `edgeTolerance`). A single capture has no fixed rows.
struct FixedRows {
    var same: [Bool]
    var nearlySame: [Bool]

    var count: Int { same.count }

    /// Compares each capture's rows near its top and bottom with the first capture's, one capture
    /// at a time; only rows still the same in every capture so far are compared. Rows up to `share`
    /// of the shortest capture are looked at (the stitch planner lets bars take two fifths at most).
    struct Accumulator {
        private let share: (numerator: Int, denominator: Int)
        private let first: Image
        private let firstProfile: CaptureProfile
        private var top: FixedRows
        private var bottom: FixedRows
        private var captures = 1

        init(first: Image, _ profile: CaptureProfile, share: (numerator: Int, denominator: Int) = (2, 5)) {
            self.share = share
            self.first = first
            firstProfile = profile
            let rows = first.height * share.numerator / share.denominator
            top = FixedRows(same: Array(repeating: true, count: rows), nearlySame: Array(repeating: true, count: rows))
            bottom = top
        }

        mutating func add(_ capture: Image, _ profile: CaptureProfile) {
            captures += 1
            let rows = min(top.count, capture.height * share.numerator / share.denominator)
            top.keep(rows)
            bottom.keep(rows)
            let columns = firstProfile.innerStart..<firstProfile.innerEnd
            for r in 0..<rows {
                compare(first, row: r, profile: firstProfile, with: capture, row: r, profile, columns: columns, into: &top, at: r)
                compare(first, row: first.height - 1 - r, profile: firstProfile,
                        with: capture, row: capture.height - 1 - r, profile, columns: columns, into: &bottom, at: r)
            }
        }

        private func compare(_ a: Image, row ya: Int, profile pa: CaptureProfile, with b: Image, row yb: Int,
                             _ pb: CaptureProfile, columns: Range<Int>, into rows: inout FixedRows, at r: Int) {
            guard rows.nearlySame[r], pa.rowHashes[ya] != pb.rowHashes[yb] else { return }
            let difference = CaptureProfile.rowDifference(a, row: ya, b, row: yb, columns: columns)
            if difference > FixedBarDetector.tolerance { rows.same[r] = false }
            if difference > FixedBarDetector.edgeTolerance { rows.nearlySame[r] = false }
        }

        /// The detector for the captures added so far.
        var detector: FixedBarDetector {
            guard captures > 1 else {
                return FixedBarDetector(top: FixedRows(same: [], nearlySame: []), bottom: FixedRows(same: [], nearlySame: []))
            }
            return FixedBarDetector(top: top, bottom: bottom)
        }
    }

    private mutating func keep(_ rows: Int) {
        guard rows < same.count else { return }
        same.removeLast(same.count - rows)
        nearlySame.removeLast(nearlySame.count - rows)
    }
}
