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

    /// How two captures overlap: `b`'s scrolling region starts `distance` rows below `a`'s, sharing
    /// `rows` rows of it. `confidence` (0...1) says how little the match could be chance: for an
    /// exact match, the share of 8 different rows the overlap holds (rows all alike prove nothing and
    /// are no match), halved when the rows match at a second distance too (repeating content); for an
    /// approximate match, 1 - its cost / the median cost of all distances.
    struct Match: Sendable, Equatable {
        let distance: Int
        let rows: Int
        let confidence: Double
    }

    /// How `b` follows `a`, or nil when they do not overlap.
    func match(from a: Image, _ pa: CaptureProfile, to b: Image, _ pb: CaptureProfile) -> Match? {
        exactMatch(from: pa, to: pb) ?? approximateMatch(from: a, pa, to: b, pb)
    }

    /// The match whose rows are identical, from the row hashes alone (no pixels).
    func exactMatch(from pa: CaptureProfile, to pb: CaptureProfile) -> Match? {
        let lengthA = pa.height - header - footer, lengthB = pb.height - header - footer
        guard lengthA > 0, lengthB > 0 else { return nil }
        return exactMatch(pa, pb, lengthA: lengthA, lengthB: lengthB)
    }

    /// The match for captures whose rows do not match exactly (lossy captures).
    func approximateMatch(from a: Image, _ pa: CaptureProfile, to b: Image, _ pb: CaptureProfile) -> Match? {
        let lengthA = a.height - header - footer, lengthB = b.height - header - footer
        guard lengthA > 0, lengthB > 0 else { return nil }
        return approximateMatch(a, pa, b, pb, lengthA: lengthA, lengthB: lengthB)
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

    /// `match` found where the rows match at another distance too (repeating content): half as sure.
    private static func repeating(_ match: Match) -> Match {
        Match(distance: match.distance, rows: match.rows, confidence: match.confidence / 2)
    }

    /// Different rows an exact overlap needs for confidence 1.
    static let confidentRows = 8

    /// The smallest distance at which every overlapping row of the scrolling regions is identical
    /// and the overlap holds at least two different rows.
    private func exactMatch(_ pa: CaptureProfile, _ pb: CaptureProfile, lengthA: Int, lengthB: Int) -> Match? {
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
                var found: Match?
                for d in 0...(lengthA - minimum) {
                    let count = min(lengthB, lengthA - d)
                    guard count >= minimum, hb[h] == ha[h + d] else { continue }
                    let step = max(1, count / OverlapFinder.probes)
                    var k = step
                    while k < count, hb[h + k] == ha[h + d + k] { k += step }
                    guard k >= count, hb[h + count - 1] == ha[h + d + count - 1] else { continue }
                    guard fullChecks > 0 else { return found.map(OverlapFinder.repeating) }
                    fullChecks -= 1
                    k = 1
                    while k < count, hb[h + k] == ha[h + d + k] { k += 1 }
                    guard k == count else { continue }
                    let distinct = Set(hb[h..<(h + count)]).count
                    guard distinct >= 2 else { continue }
                    if let first = found { return OverlapFinder.repeating(first) }
                    found = Match(distance: d, rows: count,
                                  confidence: min(1, Double(distinct) / Double(OverlapFinder.confidentRows)))
                }
                return found
            }
        }
    }

    /// The distance whose overlapping row signatures differ least, refined on the pixels. A few rows
    /// at each end of the overlap are left out: next to a fixed bar, lossy compression mixes bar
    /// and content. Every distance is first scored on every fourth row; the best few are scored on
    /// all rows. The best distance must stand out: its cost well below the typical one; and its
    /// overlap must not be rows all alike (a blank stretch matches any other).
    private func approximateMatch(_ a: Image, _ pa: CaptureProfile, _ b: Image, _ pb: CaptureProfile,
                                  lengthA: Int, lengthB: Int) -> Match? {
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
        let compared = OverlapFinder.trimmed(count: min(lengthB, lengthA - best))
        guard varies(sb, rows: (header + compared.lowerBound)..<(header + compared.upperBound)) else { return nil }
        var refined = best
        var refinedCost = Double.infinity
        for d in max(0, best - 2)...min(candidates.upperBound, best + 2) {
            let cost = pixelDifference(a, pa, b, distance: d, lengthA: lengthA, lengthB: lengthB)
            if cost < refinedCost {
                refinedCost = cost
                refined = d
            }
        }
        let confidence = typical > 0 ? max(0, min(1, 1 - Double(bestCost / typical))) : 0
        return Match(distance: refined, rows: min(lengthB, lengthA - refined), confidence: confidence)
    }

    /// Mean level difference (0...255) between rows below which an overlap counts as rows all alike.
    static let minimumVariation: Float = 4

    /// Whether the row signatures `rows` (those a cost was measured on) differ somewhere by more than
    /// `minimumVariation` in a band.
    private func varies(_ signatures: [Float], rows: Range<Int>) -> Bool {
        let bands = CaptureProfile.bands
        guard let first = rows.first else { return false }
        for k in rows.dropFirst() {
            for j in 0..<bands where abs(signatures[k * bands + j] - signatures[first * bands + j]) > OverlapFinder.minimumVariation {
                return true
            }
        }
        return false
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
