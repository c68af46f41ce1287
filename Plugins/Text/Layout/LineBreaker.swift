import CSumiICU
import SumiKit

/// Line-break opportunities by ICU's line break iterator: the full UAX #14 (with ICU's dictionaries
/// for Thai, Lao, Khmer and Myanmar, whose words are not separated by spaces), tailored by the CSS
/// controls `line-break` (ICU's `lb` locale keyword), `word-break` and `hyphens`.
struct LineBreaker: Sendable {
    var options: LineBreakOptions
    /// The ICU locale the iterator is opened for, e.g. "ja@lb=strict".
    let locale: String

    init(options: LineBreakOptions = LineBreakOptions(), language: String? = nil) {
        self.options = options
        // ICU reads BCP 47 tags with "_" for "-"; an empty language is the root locale.
        var locale = String((language ?? "").map { $0 == "-" ? "_" : $0 })
        if locale.contains("@") { locale = String(locale.prefix { $0 != "@" }) }
        switch options.lineBreak {
        case .loose, .normal, .strict: locale += "@lb=\(options.lineBreak.rawValue)"
        case .auto, .anywhere: break
        }
        self.locale = locale
    }

    /// The Unicode version of ICU's character data ("15.0").
    static var unicodeVersion: String {
        var buffer = [CChar](repeating: 0, count: 16)
        sumi_icu_unicode_version(&buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The scalar offsets at which a line may start, ascending, after 0 and up to `scalars.count`
    /// (always included).
    func opportunities(_ scalars: [UInt32]) throws(StageError) -> [Int] {
        let n = scalars.count
        guard n > 0 else { return [] }
        if options.lineBreak == .anywhere { return Array(1...n) }
        var result = try boundaries(scalars, by: sumi_icu_line_breaks, kind: "line")
        if options.hyphens == .none || options.wordBreak != .normal { result = tailored(result, scalars) }
        if result.last != n { result.append(n) }
        return result
    }

    /// The scalar offsets of word boundaries after 0, ascending: in Thai, Lao, Khmer and Myanmar
    /// the boundaries between the dictionary's words.
    func wordBoundaries(_ scalars: [UInt32]) throws(StageError) -> [Int] {
        scalars.isEmpty ? [] : try boundaries(scalars, by: sumi_icu_word_breaks, kind: "word")
    }

    /// An ICU break iterator's boundaries after 0, as scalar offsets.
    private func boundaries(_ scalars: [UInt32],
                            by iterate: (UnsafePointer<CChar>?, UnsafePointer<UInt16>?, Int32, UnsafeMutablePointer<Int32>?,
                                         Int32, UnsafeMutablePointer<Int32>?) -> Int32,
                            kind: String) throws(StageError) -> [Int] {
        let n = scalars.count
        // UTF-16 for ICU, and the scalar at each UTF-16 offset.
        var utf16: [UInt16] = []
        utf16.reserveCapacity(n)
        var scalarAt: [Int32] = []
        scalarAt.reserveCapacity(n + 1)
        for (i, v) in scalars.enumerated() {
            if v >= 0x10000 {
                let u = v - 0x10000
                utf16.append(UInt16(0xD800 + (u >> 10)))
                utf16.append(UInt16(0xDC00 + (u & 0x3FF)))
                scalarAt.append(Int32(i)); scalarAt.append(-1)
            } else {
                utf16.append(UInt16(truncatingIfNeeded: v))
                scalarAt.append(Int32(i))
            }
        }
        scalarAt.append(Int32(n))
        var offsets = [Int32](repeating: 0, count: utf16.count + 1)
        var status: Int32 = 0
        let count = iterate(locale, utf16, Int32(utf16.count), &offsets, Int32(offsets.count), &status)
        guard count >= 0 else {
            let name = String(cString: sumi_icu_error_name(status))
            throw StageError("line breaking: ICU cannot open a \(kind) break iterator for \"\(locale)\" (\(name))")
        }
        var result: [Int] = []
        result.reserveCapacity(Int(count))
        for k in 0..<Int(count) {
            let s = scalarAt[Int(offsets[k])]
            if s >= 0 { result.append(Int(s)) }
        }
        return result
    }

    /// Applies `hyphens: none` and `word-break` to ICU's opportunities.
    private func tailored(_ breaks: [Int], _ scalars: [UInt32]) -> [Int] {
        let n = scalars.count
        var allowed = [Bool](repeating: false, count: n + 1)
        for b in breaks { allowed[b] = true }
        // The class of the base character before each offset (combining marks take their base's).
        var unit = [Int32](repeating: Int32(SUMI_ICU_UNIT_OTHER), count: n)
        var isMark = [Bool](repeating: false, count: n)
        for i in 0..<n {
            isMark[i] = Self.isCombining(scalars[i])
            unit[i] = isMark[i] && i > 0 ? unit[i - 1] : sumi_icu_break_unit(scalars[i])
        }
        let letter = Int32(SUMI_ICU_UNIT_LETTER), cjk = Int32(SUMI_ICU_UNIT_CJK), sa = Int32(SUMI_ICU_UNIT_SOUTHEAST_ASIAN)
        for i in 1..<n {
            let before = unit[i - 1], after = unit[i]
            switch options.wordBreak {
            case .normal:
                break
            case .keepAll:
                // Words of ideographs, kana and Hangul stay whole, as words of Latin letters do.
                let words: Set<Int32> = [letter, cjk]
                if words.contains(before) && words.contains(after) { allowed[i] = false }
            case .breakAll:
                // Letters and digits break as ideographs do: between any two.
                let letters: Set<Int32> = [letter, sa]
                if !isMark[i] && (letters.contains(before) || letters.contains(after))
                    && [letter, sa, cjk].contains(before) && [letter, sa, cjk].contains(after) {
                    allowed[i] = true
                }
            }
            if options.hyphens == .none && scalars[i - 1] == 0xAD { allowed[i] = false }
        }
        allowed[n] = true
        return (1...n).filter { allowed[$0] }
    }

    /// Combining marks, ZWJ and variation selectors: they never start a break unit.
    static func isCombining(_ v: UInt32) -> Bool {
        sumi_icu_line_break_is(v, "CM") != 0 || v == 0x200D
    }
}
