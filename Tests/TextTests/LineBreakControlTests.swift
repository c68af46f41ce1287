import Foundation
import SumiKit
import Testing
@testable import SumiText

/// ICU line breaking in layouts: dictionaries for Thai (against pango), kinsoku at each `line-break`
/// level, `word-break`, soft hyphens, URLs, and the emergency break that keeps every line in the width.
@Suite struct LineBreakControlTests {
    static let thai = "ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอนหรือวรรณยุกต์เช่นเดียวกับภาษาจีนและออกเสียงแยกคำต่อคำ"

    func layout(_ text: String, font: String, size: Double = 20, width: Double?, _ extra: [String: ParamValue] = [:])
        throws -> [LaidOutLine] {
        var params: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(size)]
        if let width { params["width"] = .number(width) }
        for (k, v) in extra { params[k] = v }
        return try TextTestSupport.content(params).layout.lines
    }

    /// Scalar offsets where each line after the first starts.
    func lineStarts(_ lines: [LaidOutLine], in text: String) -> [Int] {
        var starts: [Int] = [0]
        var offset = 0
        let scalars = Array(text.unicodeScalars)
        for line in lines.dropLast() {
            offset += line.text.unicodeScalars.count
            while offset < scalars.count && LineFitter.isSpace(scalars[offset].value) { offset += 1 }
            starts.append(offset)
        }
        return starts
    }

    @Test func kinsokuAtEachLineBreakLevel() throws {
        let text = "「すごい！」と彼は言った。ちょっとコーヒーを飲もう、そうしよう。「はい」と答えた。ァィゥの小さいカナ。"
        let neverStart: Set<Character> = ["。", "、", "」", "！", "）"]
        let smallAndLong: Set<Character> = ["ー", "ぁ", "ァ", "ィ", "ゥ", "ょ", "っ", "ッ"]
        for level in ["auto", "loose", "normal", "strict"] {
            // From 6 em: the longest run strict forbids breaking ("た。ァィゥ") is 5 em.
            for width in stride(from: 120.0, through: 260, by: 20) {
                let result = try layout(text, font: TextTestSupport.ipaGothic, width: width, ["line-break": .string(level)])
                #expect(result.map(\.text).joined() == text)
                for (i, line) in result.enumerated() {
                    let first = line.text.first ?? " "
                    #expect(i == 0 || !neverStart.contains(first), "\(level) \(width): line starts with \(line.text)")
                    #expect(line.text.last != "「", "\(level) \(width): line ends with \(line.text)")
                    if level == "strict" {
                        #expect(i == 0 || !smallAndLong.contains(first), "strict \(width): line starts with \(line.text)")
                    }
                    let hangs = line.text.last == "。" || line.text.last == "、"
                    #expect(line.width <= width + (hangs ? 20 : 0) + 0.001, "\(level) \(width): \(line.text)")
                }
            }
        }
        // normal allows a break before small kana and the long-vowel mark, strict does not.
        let loose = try LineBreaker(options: LineBreakOptions(lineBreak: .normal), language: "ja")
            .opportunities("コーヒー".unicodeScalars.map(\.value))
        let strict = try LineBreaker(options: LineBreakOptions(lineBreak: .strict), language: "ja")
            .opportunities("コーヒー".unicodeScalars.map(\.value))
        #expect(loose.contains(1) && !strict.contains(1))
    }

    @Test func onlyOneFullStopHangsAndNothingElse() throws {
        // At width 100 the old breaker let the long-vowel marks hang: a 260 px layer.
        let text = "すごーーーーーーーーーーい"
        let result = try layout(text, font: TextTestSupport.ipaGothic, width: 100, ["line-break": .string("strict")])
        #expect(result.allSatisfy { $0.width <= 100.001 })
        let content = try TextTestSupport.content(["text": .string(text), "font": .string(TextTestSupport.ipaGothic),
                                                   "size": .number(20), "width": .number(100)])
        #expect(content.size.width <= 100.001)
        let stops = try layout("あいうえお。。", font: TextTestSupport.ipaGothic, width: 100)
        #expect(stops.map(\.text) == ["あいうえ", "お。。"] || stops.allSatisfy { $0.width <= 120.001 })
        #expect(stops.allSatisfy { line in line.width <= 100.001 || line.text.hasSuffix("。") })
    }

    @Test func softHyphenBreaksWithAVisibleHyphen() throws {
        let text = "extra\u{AD}ordinary\u{AD}ness"
        let result = try layout(text, font: TextTestSupport.dejaVu, width: 110)
        #expect(result.map(\.text) == ["extra\u{2010}", "ordinary\u{2010}", "ness"])
        #expect(result.allSatisfy { $0.width <= 110.001 })
        // The hyphen is drawn: the first line has one glyph more than its letters.
        #expect(result[0].glyphRange.count == 6)
        // Unbroken, the soft hyphens show nothing.
        let whole = try layout(text, font: TextTestSupport.dejaVu, width: nil)
        let plain = try layout("extraordinaryness", font: TextTestSupport.dejaVu, width: nil)
        #expect(abs(whole[0].width - plain[0].width) < 0.001)
        // hyphens: none ignores them: the word is broken where it overflows, with no hyphen.
        let none = try layout(text, font: TextTestSupport.dejaVu, width: 110, ["hyphens": .string("none")])
        #expect(!none.map(\.text).joined().contains("\u{2010}"))
        #expect(none.first?.text.hasPrefix("extra\u{AD}ord") == true)
    }

    @Test func urlsBreakAfterSlashes() throws {
        let text = "see https://example.com/path/to/some/resource?query=value&more=things"
        let result = try layout(text, font: TextTestSupport.dejaVu, size: 17, width: 160)
        #expect(result.allSatisfy { $0.width <= 160.001 })
        #expect(result[0].text.hasPrefix("see https://"), "the URL starts on the first line: \(result[0].text)")
        // Every line but the last ends at a "/" or "?" or "&" of the URL, never inside a word.
        for line in result.dropFirst().dropLast() {
            #expect(["/", "?", "&", "="].contains(line.text.last ?? " ") || line.text.last?.isLetter == true)
        }
    }

    @Test func keepAllKeepsKoreanWordsWhole() throws {
        let text = "한국어 문장은 띄어쓰기로 단어를 나눕니다"
        let normal = try layout(text, font: "NanumGothic", width: 120)
        let keep = try layout(text, font: "NanumGothic", width: 120, ["word-break": .string("keep-all")])
        let words = Set(text.split(separator: " ").map(String.init))
        #expect(keep.allSatisfy { line in line.text.split(separator: " ").allSatisfy { words.contains(String($0)) } })
        #expect(!normal.allSatisfy { line in line.text.split(separator: " ").allSatisfy { words.contains(String($0)) } },
                "normal breaks between Hangul syllables: \(normal.map(\.text))")
    }

    @Test func breakAllAndAnywhereFillLines() throws {
        let text = "the quick brown fox jumps over the lazy dog"
        let normal = try layout(text, font: TextTestSupport.dejaVu, width: 100)
        let all = try layout(text, font: TextTestSupport.dejaVu, width: 100, ["word-break": .string("break-all")])
        let anywhere = try layout(text, font: TextTestSupport.dejaVu, width: 100, ["line-break": .string("anywhere")])
        // A line ends inside a word when its last letter and the next line's first are adjacent in the text.
        func endsInsideWords(_ lines: [LaidOutLine]) -> Bool {
            zip(lines, lines.dropFirst()).contains { a, b in
                guard let x = a.text.last, let y = b.text.first, x.isLetter, y.isLetter else { return false }
                return text.contains(String([x, y]))
            }
        }
        #expect(!endsInsideWords(normal))
        #expect(endsInsideWords(all) && endsInsideWords(anywhere))
        for l in normal + all + anywhere { #expect(l.width <= 100.001) }
        // Filled: every broken line but the last is within a letter of the width.
        #expect(all.dropLast().allSatisfy { $0.width > 100 - 17 }, "\(all.map(\.width))")
        #expect(all.count <= normal.count && anywhere.count <= normal.count)
    }

    /// Latin, CJK, Thai, Arabic, long words and punctuation, strung at random, and a random width.
    static func randomText(seed: UInt64) -> (text: String, width: Double) {
        let pieces = ["Supercalifragilistic", "word", " ", " ", "漢字", "かなカナ", "ー", "。", "、", "「", "」", "ภาษาไทย",
                      "مرحبا", "!", "?", "—", "-", "https://x.org/a/b", "\u{AD}", "1,234.5", "😀", "e\u{301}"]
        var rng = SeededRandom(seed)
        var text = ""
        for _ in 0..<Int.random(in: 1...25, using: &rng) { text += pieces.randomElement(using: &rng) ?? "" }
        return (text, Double.random(in: 10...300, using: &rng).rounded())
    }

    /// How far past `width` the lines of `text` go where they may not (zero when none does), and a
    /// message for each such line.
    func overflow(_ text: String, width: Double, seed: UInt64) throws -> (worst: Double, failures: [String]) {
        let content = try TextTestSupport.content(["text": .string(text), "size": .number(17), "width": .number(width)])
        var worst = 0.0, failures: [String] = []
        for line in content.layout.lines {
            let hangs = line.text.last == "。" || line.text.last == "、"
            guard line.width > width + 0.001 && line.text.count > 1 else { continue }
            // Or its first cluster alone is wider than the line: it then carries what may not
            // start a line (」。ー) or the cluster an opening 「 needs. The cluster is measured in
            // the font it is drawn with in the line (a digit after Arabic takes the Arabic font's).
            let glyphs = content.layout.glyphs[line.glyphRange]
            if let first = line.text.first, let face = glyphs.min(by: { $0.cluster < $1.cluster })?.face,
               try TextTestSupport.content(["text": .string(String(first)), "font": .string(face.path), "size": .number(17)])
                .layout.lines[0].width > width + 0.001 { continue }
            if !hangs { failures.append("seed \(seed): \"\(text)\" at \(width): line \"\(line.text)\" is \(line.width) wide") }
            worst = max(worst, line.width - width)
        }
        return (worst, failures)
    }

    @Test func noLineIsWiderThanTheWidth() throws {
        // 500 random texts at random widths, the same every run (20,000 seeds take about 3 s).
        var worst = 0.0
        for seed in UInt64(0)..<500 {
            let (text, width) = Self.randomText(seed: seed)
            let result = try overflow(text, width: width, seed: seed)
            for failure in result.failures { Issue.record("\(failure)") }
            worst = max(worst, result.worst)
        }
        #expect(worst <= 17 * 1.1, "a hanging 、 or 。 is at most one em")
    }

    @Test func spacesAfterAClusterWiderThanTheLineHangAtItsEnd() throws {
        // At 13 px each kana (17 px) is a line of its own. No break comes before a space: the two
        // spaces after ナ hang at the end of its line, where they once made a line of their own,
        // 17 px wide (seed 192 of the random texts).
        let lines = try layout("かなカナ  😀", font: TextTestSupport.ipaGothic, size: 17, width: 13)
        #expect(lines.map(\.text) == ["か", "な", "カ", "ナ", "😀"])
        #expect(lines.allSatisfy { $0.width <= 17.001 || $0.text == "😀" }, "\(lines.map(\.width))")
        // Closing punctuation after the spaces still may not start a line: it joins them.
        let closing = try layout("カナ  」か", font: TextTestSupport.ipaGothic, size: 17, width: 13)
        #expect(closing.map(\.text) == ["カ", "ナ  」", "か"])
        // The text of seed 192 begins with a space, its own first line; no other line is spaces alone.
        let (text, width) = Self.randomText(seed: 192)
        let random = try TextTestSupport.content(["text": .string(text), "size": .number(17), "width": .number(width)]).layout.lines
        #expect(!random.dropFirst().contains { $0.text.allSatisfy(\.isWhitespace) }, "\(random.map(\.text))")
    }

    @Test func longClustersAreRefusedQuickly() throws {
        let start = ContinuousClock.now
        let text = "a" + String(repeating: "\u{301}", count: 100_000)
        #expect {
            _ = try TextTestSupport.content(["text": .string(text)])
        } throws: { error in
            let message = "\(error)"
            return message.contains("100000 combining marks") && message.contains("at most 63")
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        // Thirty marks (stream-safe text) and long emoji sequences are drawn.
        _ = try TextTestSupport.content(["text": .string("a" + String(repeating: "\u{301}", count: 30))])
        _ = try TextTestSupport.content(["text": .string("👨‍👩‍👧‍👦🏴󠁧󠁢󠁳󠁣󠁴󠁿")])
    }
}
