/// Greedy line filling: each line takes as many clusters as fit in the width, breaking at the last
/// opportunity; trailing spaces hang past the edge; a cluster run with no opportunity that is wider
/// than a line is broken between clusters rather than overflowing — except where the break would
/// start a line with closing punctuation or a small kana, or end one with an opening bracket:
/// those hang past the edge instead (burasagari).
enum LineFitter {
    static func canForceBreak(_ classes: [LineBreaker.BreakClass], before i: Int) -> Bool {
        classes[i] != .closing && classes[i] != .glue && classes[i - 1] != .opening && classes[i - 1] != .glue
    }

    static func fit(widths: [Double], classes: [LineBreaker.BreakClass], maxWidth: Double) -> [Range<Int>] {
        let n = widths.count
        guard n > 0 else { return [0..<0] }
        let opportunities = LineBreaker.opportunities(classes)
        var prefix = [Double](repeating: 0, count: n + 1)
        for i in 0..<n { prefix[i + 1] = prefix[i] + widths[i] }
        var lines: [Range<Int>] = []
        var start = 0
        var x = 0.0
        var lastBreak: Int?
        let limit = maxWidth + 1e-6
        for i in 0..<n {
            if i > start && opportunities[i] { lastBreak = i }
            if classes[i] == .space || classes[i] == .zeroWidthSpace {
                x += widths[i]
                continue
            }
            if i > start && x + widths[i] > limit {
                if let b = lastBreak, b > start {
                    lines.append(start..<b)
                    start = b
                    x = prefix[i] - prefix[start]
                }
                if i > start && x + widths[i] > limit && canForceBreak(classes, before: i) {
                    lines.append(start..<i)
                    start = i
                    x = 0
                }
                lastBreak = nil
            }
            x += widths[i]
        }
        lines.append(start..<n)
        return lines
    }
}
