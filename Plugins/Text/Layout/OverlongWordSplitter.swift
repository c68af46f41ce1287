import CSumiICU

/// Where a word too long for its line is cut when it is written without spaces (Thai, Lao, Khmer,
/// Myanmar: ICU's line-break class SA). A dictionary word such as กรุงเทพมหานคร is one unit for
/// line breaking, yet made of words: ICU's word iterator, run over the part of it that fits, splits
/// that part into the dictionary words it holds (กรุง|เทพ|มหา|นค), and the line ends at the last
/// of those boundaries (กรุงเทพมหา|นคร, where pango with libthai ends it too), or after the whole
/// part when a word also ends there with the next cluster added (กรุงเทพมหา|น). Only when the part
/// holds no boundary does the line end after the last grapheme cluster that fits — and then not
/// inside a syllable: never after a vowel written ahead of its consonant (เ แ โ ใ ไ), never before
/// a dependent vowel (ะ า). Other scripts keep CSS `overflow-wrap: anywhere` (any cluster).
struct OverlongWordSplitter {
    let scalars: [UInt32]
    /// The scalar offset each grapheme cluster starts at.
    let clusterStarts: [Int]
    let breaker: LineBreaker

    /// The cluster to end a line at that holds clusters `start..<overflow` of one unbreakable word
    /// and overflows at cluster `overflow`: in `start + 1 ... overflow`, or `nil` when the cut does not
    /// fall inside a word of a dictionary script.
    func end(from start: Int, overflowingAt overflow: Int) -> Int? {
        guard overflow - start >= 2, overflow < clusterStarts.count,
              isDictionaryScript(overflow - 1), isDictionaryScript(overflow) else { return nil }
        let lo = clusterStarts[start], hi = clusterStarts[overflow]
        let next = overflow + 1 < clusterStarts.count ? clusterStarts[overflow + 1] : scalars.count
        // Boundaries inside the part that fits, and its end when the dictionary also ends a word
        // there with the overflowing cluster added.
        var boundaries = Set((try? breaker.wordBoundaries(Array(scalars[lo..<hi]))) ?? []).filter { lo + $0 < hi }
        if (try? breaker.wordBoundaries(Array(scalars[lo..<next])))?.contains(hi - lo) == true { boundaries.insert(hi - lo) }
        for offset in boundaries.sorted(by: >) where offset > 0 {
            if let cluster = cluster(startingAt: lo + offset, in: (start + 1)...overflow) { return cluster }
        }
        var e = overflow
        while e > start + 1 && sumi_icu_within_syllable(scalars[clusterStarts[e - 1]], scalars[clusterStarts[e]]) != 0 {
            e -= 1
        }
        return e
    }

    /// The cluster in `clusters` that starts at scalar `offset`, if one does (binary search).
    private func cluster(startingAt offset: Int, in clusters: ClosedRange<Int>) -> Int? {
        var lo = clusters.lowerBound, hi = clusters.upperBound
        while lo <= hi {
            let mid = (lo + hi) / 2
            if clusterStarts[mid] == offset { return mid }
            if clusterStarts[mid] < offset { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }

    /// Whether cluster `index` is of a script broken by dictionary (line-break class SA).
    private func isDictionaryScript(_ index: Int) -> Bool {
        sumi_icu_break_unit(scalars[clusterStarts[index]]) == Int32(SUMI_ICU_UNIT_SOUTHEAST_ASIAN)
    }
}
