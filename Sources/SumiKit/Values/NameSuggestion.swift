/// "Did you mean …?" for every name Sumi looks up: commands, options, stages (on the command line and
/// in a manifest), stage ids, ports, parameters, output template tokens and served pipelines.
package enum NameSuggestion {
    /// The known name nearest to a misspelt one, ignoring case: edit distance ≤ 2 (≤ 1 for names of 3
    /// letters or fewer; a swap of two neighbours is one edit), or else the one known name that starts
    /// with what was typed (`scal` → `scale`). Names whose length differs by more than the limit are
    /// not compared, so a 10 MB name from a manifest costs nothing.
    package static func closest(_ name: String, in names: [String]) -> String? {
        guard !name.isEmpty else { return nil }
        let length = name.count
        let limit = length <= 3 ? 1 : 2
        let near = names.filter { abs($0.count - length) <= limit }
        if !near.isEmpty {
            let typed = Array(name.lowercased())
            let scored = near.map { ($0, distance(typed, Array($0.lowercased()))) }
            if let best = scored.filter({ $0.1 <= limit }).min(by: { $0.1 < $1.1 }) { return best.0 }
        }
        let prefixed = names.filter { $0.hasPrefix(name) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// ` (did you mean "scale"?)`, or nothing.
    package static func hint(_ name: String, in names: [String]) -> String {
        closest(name, in: names).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Edit distance counting a swap of two neighbours as one edit (`rnu` → `run`).
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
