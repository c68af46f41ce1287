import SumiKit
import Testing
@testable import SumiText

@Suite struct LineBreakingTests {
    func lines(_ text: String, font: String = "sans-serif", size: Double = 20, width: Double? = nil) throws -> [LaidOutLine] {
        var params: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(size)]
        if let width { params["width"] = .number(width) }
        return try TextTestSupport.content(params).layout.lines
    }

    @Test func japaneseWrapsBetweenIdeographsWithOneHangingFullStop() throws {
        // IPAGothic's kana, kanji and 。 are all 1 em wide: five fit in 100 px at 20 px. The final 。
        // would start a line: it hangs past the edge instead (JLREQ), the only glyph allowed to.
        let result = try lines("吾輩は猫である。名前はまだ無い。", font: TextTestSupport.ipaGothic, width: 100)
        #expect(result.map(\.text) == ["吾輩は猫で", "ある。名前", "はまだ無い。"])
        #expect(result.dropLast().allSatisfy { $0.width <= 100.001 })
        #expect(abs(result[2].width - 120) < 0.001)
    }

    @Test func noLineEndsWithAnOpeningBracketOrStartsWithClosingMarks() throws {
        let a = try lines("あいう「えお」", font: TextTestSupport.ipaGothic, width: 80)
        #expect(a.map(\.text) == ["あいう", "「えお」"])
        let b = try lines("ちょっとコーヒーを飲もう", font: TextTestSupport.ipaGothic, width: 60)
        #expect(b.map(\.text).joined() == "ちょっとコーヒーを飲もう")
        #expect(b.allSatisfy { $0.width <= 60.001 })
    }

    /// A width narrower than any glyph (1 px) still keeps kinsoku: each line holds one character
    /// and takes the 。、」 that follow it along, so no line starts with one; 「 stays with what it opens.
    @Test(arguments: [1.0, 10.0])
    func kinsokuHoldsWhenTheWidthIsNarrowerThanAGlyph(width: Double) throws {
        let text = "あい。うえ、お「か」き。"
        let result = try lines(text, font: TextTestSupport.ipaGothic, width: width)
        #expect(result.map(\.text) == ["あ", "い。", "う", "え、", "お", "「か」", "き。"])
        #expect(result.map(\.text).joined() == text)
    }

    @Test func latinWrapsAtSpaces() throws {
        let result = try lines("the quick brown fox jumps", font: TextTestSupport.dejaVu, size: 20, width: 120)
        #expect(result.map(\.text) == ["the quick", "brown fox", "jumps"])
        #expect(result.allSatisfy { $0.width <= 120.001 })
    }

    @Test func longWordWithoutSpacesIsBroken() throws {
        let word = "Supercalifragilisticexpialidocious"
        let result = try lines(word, font: TextTestSupport.dejaVu, size: 17, width: 60)
        #expect(result.count >= 5)
        #expect(result.map(\.text).joined() == word)
        #expect(result.allSatisfy { $0.width <= 60.001 })
        #expect(result.dropLast().allSatisfy { $0.width > 45 }, "each broken line is filled")
    }

    @Test func explicitNewlines() throws {
        let result = try lines("one\ntwo\r\n\nthree", font: TextTestSupport.dejaVu)
        #expect(result.map(\.text) == ["one", "two", "", "three"])
        // Lines stack at the same pitch.
        let pitch = result[1].top - result[0].top
        #expect(pitch > 20 && abs(result[3].top - result[2].top - pitch) < 0.001)
    }

    @Test func lineHeightAndAlignment() throws {
        let base = try TextTestSupport.content(["text": .string("a\nbbbbbb"), "font": .string(TextTestSupport.dejaVu)])
        let doubled = try TextTestSupport.content(["text": .string("a\nbbbbbb"), "font": .string(TextTestSupport.dejaVu),
                                                   "line-height": .number(2)])
        #expect(abs(doubled.size.height - 2 * base.size.height) < 0.001)
        let centered = try TextTestSupport.content(["text": .string("a\nbbbbbb"), "font": .string(TextTestSupport.dejaVu),
                                                    "align": .string("center")])
        let l = centered.layout.lines
        #expect(abs((l[0].x + l[0].width / 2) - (l[1].x + l[1].width / 2)) < 0.001)
        let ended = try TextTestSupport.content(["text": .string("a\nbbbbbb"), "font": .string(TextTestSupport.dejaVu),
                                                 "align": .string("end")])
        let e = ended.layout.lines
        #expect(abs((e[0].x + e[0].width) - (e[1].x + e[1].width)) < 0.001 && e[0].x > 0)
    }
}
