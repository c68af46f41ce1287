import SumiKit

/// The order of a stitch's captures on the page, from the row hashes of the planning pass.
///
/// The captures keep the order given when each one overlaps the next exactly (the common case,
/// costing one comparison per pair). Otherwise every capture is compared with every other: a
/// capture whose scrolling rows are all those of an earlier one (distance 0, same height) is an
/// exact duplicate and dropped; the others fall into groups joined by overlaps. Each group is held
/// together by its largest overlaps (a maximum spanning forest, so a chance match of a few rows never
/// outweighs a larger true one) and ordered by the positions those overlaps give, so the page is the
/// same whichever order the captures came in. Fixed bars are not part of any comparison (the
/// finder looks at the rows between `header` and `footer` only). Several groups mean a gap: they
/// are ordered by their earliest capture as given (nothing else says where a gap goes).
struct CaptureOrder {
    /// How a capture is joined to the one above it on the page.
    enum Join: Sendable, Equatable {
        /// The first capture of the page.
        case top
        case overlap(OverlapFinder.Match)
        /// The first capture of a group that overlaps none of the captures above.
        case gap
    }

    /// Indices (as given) of the captures kept, top to bottom.
    private(set) var order: [Int]
    /// How each capture of `order` joins the one above.
    private(set) var joins: [Join]
    /// Exact duplicates dropped: the index of each, and of the earlier capture it repeats.
    private(set) var duplicates: [(index: Int, of: Int)] = []
    /// The groups of captures that overlap each other, in page order (one group: no gap).
    private(set) var groups: [[Int]]

    /// The most captures compared all with all (a million pairs); more must come in scroll order.
    static let maxCompared = 1000

    /// Matches for every pair of captures: only those that exist are kept (a capture overlaps a few
    /// others), so memory grows with the captures, not with the pairs.
    typealias Matches = [Pair: OverlapFinder.Match]

    /// Two captures, by their indices as given.
    struct Pair: Hashable {
        let from: Int
        let to: Int
    }

    init(profiles: [CaptureProfile], finder: OverlapFinder) throws {
        let n = profiles.count
        let consecutive = (1..<max(1, n)).compactMap { i -> OverlapFinder.Match? in
            guard let match = finder.exactMatch(from: profiles[i - 1], to: profiles[i]), match.distance > 0 else { return nil }
            return match
        }
        if consecutive.count == n - 1 {
            order = Array(0..<n)
            joins = [.top] + consecutive.map { .overlap($0) }
            groups = [order]
            return
        }
        guard n <= CaptureOrder.maxCompared else {
            throw StageError("\(n) captures that are not each followed by the next one down: more than \(CaptureOrder.maxCompared) "
                             + "are not put in order; give them in scroll order")
        }
        var matches = Matches()
        for a in 0..<n {
            for b in 0..<n where a != b {
                if let match = finder.exactMatch(from: profiles[a], to: profiles[b]) { matches[Pair(from: a, to: b)] = match }
            }
        }
        var kept: [Int] = []
        var duplicates: [(index: Int, of: Int)] = []
        for b in 0..<n {
            if let a = kept.first(where: { matches[Pair(from: $0, to: b)]?.distance == 0 && profiles[$0].height == profiles[b].height }) {
                duplicates.append((b, a))
            } else {
                kept.append(b)
            }
        }
        self.duplicates = duplicates
        (order, joins, groups) = CaptureOrder.arrange(kept, matches: matches, profiles: profiles, finder: finder)
    }

    /// The kept captures in page order: groups by their largest overlaps, each sorted by position.
    private static func arrange(_ kept: [Int], matches: Matches, profiles: [CaptureProfile],
                                finder: OverlapFinder) -> ([Int], [Join], [[Int]]) {
        let isKept = Set(kept)
        var edges: [(a: Int, b: Int, match: OverlapFinder.Match)] = matches.compactMap { pair, match in
            isKept.contains(pair.from) && isKept.contains(pair.to) && match.distance > 0 ? (pair.from, pair.to, match) : nil
        }
        edges.sort { ($0.match.rows, $0.match.confidence, -$0.a, -$0.b) > ($1.match.rows, $1.match.confidence, -$1.a, -$1.b) }
        var root = Dictionary(uniqueKeysWithValues: kept.map { ($0, $0) })
        func find(_ x: Int) -> Int {
            var x = x
            while let parent = root[x], parent != x { x = parent }
            return x
        }
        // Kruskal: the largest overlaps that join two groups not yet joined form each group's tree.
        var tree: [Int: [(other: Int, distance: Int, confidence: Double)]] = [:]
        for edge in edges {
            let ra = find(edge.a), rb = find(edge.b)
            guard ra != rb else { continue }
            root[max(ra, rb)] = min(ra, rb)
            tree[edge.a, default: []].append((edge.b, edge.match.distance, edge.match.confidence))
            tree[edge.b, default: []].append((edge.a, -edge.match.distance, edge.match.confidence))
        }
        // Positions in each group from its earliest capture, through the tree.
        var position: [Int: Int] = [:]
        var placedWith: [Int: Double] = [:]
        var groups: [[Int]] = []
        for start in kept where position[start] == nil {
            position[start] = 0
            placedWith[start] = 1
            var group = [start], queue = [start]
            while let node = queue.popLast() {
                for link in tree[node] ?? [] where position[link.other] == nil {
                    position[link.other] = (position[node] ?? 0) + link.distance
                    placedWith[link.other] = link.confidence
                    group.append(link.other)
                    queue.append(link.other)
                }
            }
            groups.append(group.sorted { (position[$0] ?? 0, $0) < (position[$1] ?? 0, $1) })
        }
        var order: [Int] = [], joins: [Join] = []
        for group in groups {
            for (k, capture) in group.enumerated() {
                guard k > 0 else {
                    joins.append(order.isEmpty ? .top : .gap)
                    order.append(capture)
                    continue
                }
                let above = group[k - 1]
                let distance = (position[capture] ?? 0) - (position[above] ?? 0)
                if let m = matches[Pair(from: above, to: capture)], m.distance == distance {
                    joins.append(.overlap(m))
                } else {
                    // Placed through other captures: the rows the two scrolling regions share.
                    let lengthAbove = profiles[above].height - finder.header - finder.footer
                    let lengthBelow = profiles[capture].height - finder.header - finder.footer
                    let rows = max(0, min(lengthBelow, lengthAbove - distance))
                    let confidence = min(placedWith[above] ?? 0, placedWith[capture] ?? 0)
                    joins.append(.overlap(OverlapFinder.Match(distance: distance, rows: rows, confidence: confidence)))
                }
                order.append(capture)
            }
        }
        return (order, joins, groups)
    }

    /// The given order of the captures kept, joined by `joins` (for captures matched only
    /// approximately, in the order given).
    mutating func keepGivenOrder(joins given: [Join]) {
        order = order.sorted()
        joins = given
        groups = [order]
    }
}
