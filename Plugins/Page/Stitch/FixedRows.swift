import SumiKit

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
    /// The first capture's rows are read from its runs when it is kept as runs anyway; otherwise
    /// only its rows still compared are kept: once a second capture has scrolled, little more than
    /// the bars.
    struct Accumulator {
        private let share: (numerator: Int, denominator: Int)
        private let firstProfile: CaptureProfile
        /// The first capture's runs (nil: its rows are in `firstRows`), and one row expanded from them.
        private let firstRuns: PixelRuns?
        private var expanded = PixelBuffer()
        /// The first capture's rows still compared: `first`'s pixels, or a compact copy of them.
        private var firstRows: PixelBuffer
        /// For each row counted from the top (bottom), where it starts in `firstRows` (-1: no longer compared).
        private var topAt: [Int]
        private var bottomAt: [Int]
        private var top: FixedRows
        private var bottom: FixedRows
        private var captures = 1

        init(first: Image, _ profile: CaptureProfile, runs: PixelRuns? = nil, share: (numerator: Int, denominator: Int) = (2, 5)) {
            self.share = share
            firstProfile = profile
            firstRuns = runs
            firstRows = runs == nil ? first.pixels : PixelBuffer()
            let rows = first.height * share.numerator / share.denominator
            let stride = first.stride, height = first.height
            topAt = (0..<rows).map { $0 * stride }
            bottomAt = (0..<rows).map { (height - 1 - $0) * stride }
            top = FixedRows(same: Array(repeating: true, count: rows), nearlySame: Array(repeating: true, count: rows))
            bottom = top
        }

        mutating func add(_ capture: Image, _ profile: CaptureProfile) {
            captures += 1
            let rows = min(top.count, capture.height * share.numerator / share.denominator)
            top.keep(rows)
            bottom.keep(rows)
            topAt.removeLast(topAt.count - rows)
            bottomAt.removeLast(bottomAt.count - rows)
            let columns = firstProfile.innerStart..<firstProfile.innerEnd
            for r in 0..<rows {
                if top.nearlySame[r], let difference = difference(topAt[r], row: r, with: capture, row: r, profile, columns: columns) {
                    top.record(difference, at: r)
                }
                let bottomRow = firstProfile.height - 1 - r
                if bottom.nearlySame[r], let difference = difference(bottomAt[r], row: bottomRow, with: capture, row: capture.height - 1 - r,
                                                                      profile, columns: columns) {
                    bottom.record(difference, at: r)
                }
            }
            compact()
        }

        /// How the first capture's row `ya` (at byte `at` of `firstRows`) differs from row `yb` of `b`;
        /// nil when their hashes are equal.
        private mutating func difference(_ at: Int, row ya: Int, with b: Image, row yb: Int, _ pb: CaptureProfile,
                                         columns: Range<Int>) -> Double? {
            guard firstProfile.rowHashes[ya] != pb.rowHashes[yb] else { return nil }
            guard let firstRuns else { return CaptureProfile.rowDifference(firstRows, at: at, b.pixels, at: yb * b.stride, columns: columns) }
            if expanded.isEmpty { expanded = PixelBuffer(repeating: 0, count: firstProfile.width * 4) }
            expanded.withUnsafeMutableBufferPointer { row in row.baseAddress.map { firstRuns.copyRow(ya, into: $0) } }
            return CaptureProfile.rowDifference(expanded, at: 0, b.pixels, at: yb * b.stride, columns: columns)
        }

        /// Keeps of the first capture only the rows still compared, when they are at most half of
        /// those kept now.
        private mutating func compact() {
            guard firstRuns == nil else { return }
            let stride = firstProfile.width * 4
            let kept = top.nearlySame.filter { $0 }.count + bottom.nearlySame.filter { $0 }.count
            guard kept * stride * 2 <= firstRows.count else { return }
            var rows: [UInt8] = []
            rows.reserveCapacity(kept * stride)
            func keep(_ at: inout [Int], _ still: [Bool]) {
                for r in at.indices {
                    guard still[r] else {
                        at[r] = -1
                        continue
                    }
                    let start = at[r]
                    at[r] = rows.count
                    rows.append(contentsOf: firstRows[start..<(start + stride)])
                }
            }
            keep(&topAt, top.nearlySame)
            keep(&bottomAt, bottom.nearlySame)
            firstRows = PixelBuffer(rows)
        }

        /// The detector for the captures added so far.
        var detector: FixedBarDetector {
            guard captures > 1 else {
                return FixedBarDetector(top: FixedRows(same: [], nearlySame: []), bottom: FixedRows(same: [], nearlySame: []))
            }
            return FixedBarDetector(top: top, bottom: bottom)
        }
    }

    /// Marks row `r` as changed as far as `difference` says.
    private mutating func record(_ difference: Double, at r: Int) {
        if difference > FixedBarDetector.tolerance { same[r] = false }
        if difference > FixedBarDetector.edgeTolerance { nearlySame[r] = false }
    }

    private mutating func keep(_ rows: Int) {
        guard rows < same.count else { return }
        same.removeLast(same.count - rows)
        nearlySame.removeLast(nearlySame.count - rows)
    }
}
