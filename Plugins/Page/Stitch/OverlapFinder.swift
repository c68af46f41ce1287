import SumiKit

/// Finds how far the content scrolled between two consecutive captures.
///
/// Both captures share the fixed bars `header` (top rows) and `footer` (bottom rows); between them is
/// the scrolling region. The scroll distance `d` is such that row `r` of the next capture's scrolling
/// region shows what row `r + d` of the previous one showed. Exact row matching (row hashes) is tried
/// first; if no distance matches exactly, as with JPEG captures, the distance whose row signatures
/// differ least is taken and refined on the pixels themselves.
struct OverlapFinder {
    let header: Int
    let footer: Int
    /// How far below the median cost of all distances the best one must be to count as an overlap.
    /// (True overlaps of JPEG captures measure under 0.05; unrelated content around 0.45.)
    var distinctness: Float = 0.2

    /// The scroll distance from `a` to `b`, or nil when they do not overlap.
    func distance(from a: Image, _ pa: CaptureProfile, to b: Image, _ pb: CaptureProfile) -> Int? {
        exactDistance(from: pa, to: pb) ?? approximateDistance(from: a, pa, to: b, pb)
    }

    /// The scroll distance at which the rows match exactly, from the row hashes alone (no pixels).
    func exactDistance(from pa: CaptureProfile, to pb: CaptureProfile) -> Int? {
        let lengthA = pa.height - header - footer, lengthB = pb.height - header - footer
        guard lengthA > 0, lengthB > 0 else { return nil }
        return exactDistance(pa, pb, lengthA: lengthA, lengthB: lengthB)
    }

    /// The scroll distance for captures whose rows do not match exactly (lossy captures).
    func approximateDistance(from a: Image, _ pa: CaptureProfile, to b: Image, _ pb: CaptureProfile) -> Int? {
        let lengthA = a.height - header - footer, lengthB = b.height - header - footer
        guard lengthA > 0, lengthB > 0 else { return nil }
        return approximateDistance(a, pa, b, pb, lengthA: lengthA, lengthB: lengthB)
    }

    /// Rows probed per distance before the exact comparison of every row.
    static let probes = 64
    /// Distances compared row by row in full before the exact search gives up.
    static let fullChecks = 32
    /// Rows of each overlap scored in the approximate search's coarse pass.
    static let coarseRows = 256

    /// The fewest overlapping rows that count as an overlap.
    static func minimumOverlap(_ lengthA: Int, _ lengthB: Int) -> Int {
        max(4, min(lengthA, lengthB) / 50)
    }

    /// The smallest distance at which every overlapping row of the scrolling regions is identical.
    private func exactDistance(_ pa: CaptureProfile, _ pb: CaptureProfile, lengthA: Int, lengthB: Int) -> Int? {
        let minimum = OverlapFinder.minimumOverlap(lengthA, lengthB)
        guard lengthA >= minimum else { return nil }
        let h = header
        return pa.rowHashes.withUnsafeBufferPointer { ha in
            pb.rowHashes.withUnsafeBufferPointer { hb in
                // Each distance is first checked on at most `probes` spread rows; only distances
                // that pass get the full check, and at most `fullChecks` of them: uniform or
                // periodic content (where many distances pass the probes) then goes on to the
                // approximate search instead of costing rows² comparisons.
                var fullChecks = OverlapFinder.fullChecks
                for d in 0...(lengthA - minimum) {
                    let count = min(lengthB, lengthA - d)
                    guard count >= minimum, hb[h] == ha[h + d] else { continue }
                    let step = max(1, count / OverlapFinder.probes)
                    var k = step
                    while k < count, hb[h + k] == ha[h + d + k] { k += step }
                    guard k >= count, hb[h + count - 1] == ha[h + d + count - 1] else { continue }
                    guard fullChecks > 0 else { return nil }
                    fullChecks -= 1
                    k = 1
                    while k < count, hb[h + k] == ha[h + d + k] { k += 1 }
                    if k == count { return d }
                }
                return nil
            }
        }
    }

    /// The distance whose overlapping row signatures differ least, refined on the pixels. A few rows
    /// at each end of the overlap are left out: next to a fixed bar, lossy compression mixes bar
    /// and content. Every distance is first scored on every fourth row; the best few are scored on
    /// all rows. The best distance must stand out: its cost well below the typical one.
    private func approximateDistance(_ a: Image, _ pa: CaptureProfile, _ b: Image, _ pb: CaptureProfile,
                                     lengthA: Int, lengthB: Int) -> Int? {
        let minimum = max(8, min(lengthA, lengthB) / 25)
        guard lengthA >= minimum, lengthB >= minimum else { return nil }
        let sa = pa.signatures(of: a), sb = pb.signatures(of: b)
        let candidates = 0...(lengthA - minimum)
        // The coarse pass looks at about `coarseRows` rows of each overlap (every fourth row of a
        // short one): its cost grows with the captures' height, not with its square.
        let coarse = candidates.map { d in
            let step = max(4, min(lengthB, lengthA - d) / OverlapFinder.coarseRows)
            return signatureCost(sa, sb, distance: d, lengthA: lengthA, lengthB: lengthB, rowStep: step)
        }
        let sorted = coarse.sorted()
        let typical = sorted[sorted.count / 2]
        var shortlist = Set<Int>()
        for d in candidates.sorted(by: { coarse[$0] < coarse[$1] }).prefix(8) {
            for n in max(0, d - 2)...min(candidates.upperBound, d + 2) { shortlist.insert(n) }
        }
        var best = -1
        var bestCost = Float.infinity
        for d in shortlist.sorted() {
            let cost = signatureCost(sa, sb, distance: d, lengthA: lengthA, lengthB: lengthB, rowStep: 1)
            if cost < bestCost {
                bestCost = cost
                best = d
            }
        }
        guard best >= 0, coarse.count < 3 || bestCost <= distinctness * typical else { return nil }
        var refined = best
        var refinedCost = Double.infinity
        for d in max(0, best - 2)...min(candidates.upperBound, best + 2) {
            let cost = pixelDifference(a, pa, b, distance: d, lengthA: lengthA, lengthB: lengthB)
            if cost < refinedCost {
                refinedCost = cost
                refined = d
            }
        }
        return refined
    }

    /// Mean absolute difference of the row signatures over the (trimmed) overlap at distance `d`,
    /// looking at every `rowStep`-th row.
    private func signatureCost(_ sa: [Float], _ sb: [Float], distance d: Int, lengthA: Int, lengthB: Int,
                               rowStep: Int) -> Float {
        let bands = CaptureProfile.bands
        let rows = OverlapFinder.trimmed(count: min(lengthB, lengthA - d))
        return sa.withUnsafeBufferPointer { sa in
            sb.withUnsafeBufferPointer { sb in
                var cost: Float = 0
                var count = 0
                for k in stride(from: rows.lowerBound, to: rows.upperBound, by: rowStep) {
                    let ia = (header + d + k) * bands, ib = (header + k) * bands
                    for j in 0..<bands { cost += abs(sa[ia + j] - sb[ib + j]) }
                    count += bands
                }
                return cost / Float(max(1, count))
            }
        }
    }

    /// The overlap rows compared: all but up to 16 at each end, keeping at least half.
    static func trimmed(count: Int) -> Range<Int> {
        let cut = min(16, count / 4)
        return cut..<(count - cut)
    }

    /// Mean absolute difference per channel over the overlap at distance `d`.
    func pixelDifference(_ a: Image, _ pa: CaptureProfile, _ b: Image, distance d: Int, lengthA: Int, lengthB: Int) -> Double {
        let rows = OverlapFinder.trimmed(count: min(lengthB, lengthA - d))
        guard rows.count > 0 else { return .infinity }
        let columns = pa.innerStart..<pa.innerEnd
        var total = 0.0
        for k in rows {
            total += CaptureProfile.rowDifference(a, row: header + d + k, b, row: header + k, columns: columns)
        }
        return total / Double(rows.count)
    }
}
