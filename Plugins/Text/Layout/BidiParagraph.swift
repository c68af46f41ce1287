import CFribidi

/// The Unicode Bidirectional Algorithm's embedding levels for one paragraph, from libfribidi.
struct BidiParagraph: Sendable {
    /// One level per scalar: even is left-to-right, odd right-to-left.
    let levels: [UInt8]
    /// Whether the paragraph's base direction is right-to-left.
    let isRightToLeft: Bool

    /// Resolves the levels of one paragraph. With `auto`, a paragraph without a strong letter
    /// (digits, punctuation, emoji) takes `neutralIsRightToLeft`, the previous paragraph's direction.
    init(_ scalars: [UInt32], direction: TextDirection, neutralIsRightToLeft: Bool = false) {
        let n = scalars.count
        guard n > 0 else {
            levels = []
            isRightToLeft = direction == .rtl || (direction == .auto && neutralIsRightToLeft)
            return
        }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: n)
        fribidi.fribidi_get_bidi_types(scalars, Int32(n), &types)
        var base: FriBidiParType
        switch direction {
        case .auto where !types.contains(where: { sumi_fribidi_is_strong_letter($0) != 0 }):
            base = neutralIsRightToLeft ? sumi_fribidi_par_rtl() : sumi_fribidi_par_ltr()
        case .auto: base = sumi_fribidi_par_on()
        case .ltr: base = sumi_fribidi_par_ltr()
        case .rtl: base = sumi_fribidi_par_rtl()
        }
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        var raw = [FriBidiLevel](repeating: 0, count: n)
        fribidi.fribidi_get_bracket_types(scalars, Int32(n), types, &brackets)
        let maxLevel = fribidi.fribidi_get_par_embedding_levels_ex(types, brackets, Int32(n), &base, &raw)
        let rtl = sumi_fribidi_par_is_rtl(base) != 0
        isRightToLeft = rtl
        levels = maxLevel > 0 ? raw.map { UInt8(clamping: $0) } : [UInt8](repeating: rtl ? 1 : 0, count: n)
    }

    /// Visual order of items with the given levels (rule L2: from the highest level down to the
    /// lowest odd level, reverse every maximal sequence at that level or higher).
    static func visualOrder(levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                if levels[order[i]] >= level {
                    var j = i
                    while j < order.count && levels[order[j]] >= level { j += 1 }
                    order[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
