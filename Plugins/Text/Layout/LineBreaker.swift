/// Line-break opportunities between grapheme clusters: the essentials of UAX #14 plus the Japanese
/// and Chinese rules (kinsoku shori): breaks after spaces and hyphens, between ideographs, never
/// before closing brackets, small kana, the long-vowel mark or sentence punctuation, never after
/// opening brackets, never around no-break spaces and word joiners.
enum LineBreaker {
    /// The break behaviour of a cluster, from its first scalar.
    enum BreakClass: Sendable {
        case space, ideographic, opening, closing, glue, zeroWidthSpace, hyphen, other
    }

    static func breakClass(_ cluster: Character) -> BreakClass {
        guard let v = cluster.unicodeScalars.first?.value else { return .other }
        switch v {
        case 0x20, 0x09, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000:
            return .space
        case 0x200B:
            return .zeroWidthSpace
        case 0xA0, 0x202F, 0x2007, 0x2060, 0xFEFF, 0x2011, 0x0F0C:
            return .glue
        case 0x2D, 0x2010, 0x2012, 0x2013, 0x2014, 0x058A, 0x2E17:
            return .hyphen
        case 0x28, 0x5B, 0x7B, 0xAB, 0x2018, 0x201C, 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016,
             0x3018, 0x301A, 0x301D, 0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62, 0xFE59, 0xFE5B, 0xFE5D, 0xFF04, 0xFFE1, 0xFFE5:
            return .opening
        case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D, 0xBB, 0x2019, 0x201D, 0x2026, 0x2025, 0x203C, 0x2047...0x2049,
             0x3001, 0x3002, 0x3005, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B, 0x301C, 0x301E, 0x301F,
             0x303B, 0x309B...0x309E, 0x30A0, 0x30FB...0x30FE, 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085,
             0x3087, 0x308E, 0x3095, 0x3096, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE,
             0x30F5, 0x30F6, 0x31F0...0x31FF, 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D,
             0xFF60, 0xFF61, 0xFF63, 0xFF64, 0xFF65, 0xFF67...0xFF70, 0xFF9E, 0xFF9F, 0xFE50...0xFE57, 0xFE5A, 0xFE5C, 0xFE5E,
             0x060C, 0x061B, 0x061F, 0x06D4, 0x0964, 0x0965, 0x00B0, 0x2030, 0x2032, 0x2033, 0x2103, 0xFFE0, 0x25, 0xFF05:
            return .closing
        case 0x2E80...0x2FFF, 0x3003, 0x3004, 0x3006, 0x3007, 0x3012, 0x3013, 0x3020...0x303A, 0x303C...0x303F,
             0x3040...0x30FF, 0x3100...0x31EF, 0x3200...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x1B000...0x1B2FF, 0x1F000...0x1FAFF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return .ideographic
        default:
            if cluster.unicodeScalars.first?.properties.isEmojiPresentation == true { return .ideographic }
            return .other
        }
    }

    /// Whether a line may break between clusters of classes `before` and `after`.
    static func canBreak(_ before: BreakClass, _ after: BreakClass) -> Bool {
        switch (before, after) {
        case (.glue, _), (_, .glue): return false
        case (_, .space), (_, .zeroWidthSpace): return false
        case (_, .closing): return false
        case (.opening, _): return false
        case (.zeroWidthSpace, _), (.space, _): return true
        case (.ideographic, .opening), (.closing, .opening): return true
        case (_, .opening): return false
        case (.ideographic, _), (_, .ideographic): return true
        case (.closing, .other), (.closing, .hyphen): return false
        case (.hyphen, .other): return true
        default: return false
        }
    }

    /// For each cluster index `i > 0`, whether a line may start at cluster `i`.
    static func opportunities(_ classes: [BreakClass]) -> [Bool] {
        var result = [Bool](repeating: false, count: classes.count)
        guard classes.count > 1 else { return result }
        for i in 1..<classes.count { result[i] = canBreak(classes[i - 1], classes[i]) }
        return result
    }
}
