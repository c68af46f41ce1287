import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Glyph ids and positions match `hb-shape` run on the same font file (font units scaled to the size).
@Suite struct ShapingReferenceTests {
    /// Lays out `text` in one font file and compares with hb-shape: ids in visual order, x and y
    /// positions within 0.01 layout pixels.
    func compare(font: String, text: String, size: Double = 17, language: String? = nil,
                 extra: [String] = []) throws -> [PlacedGlyph] {
        var params: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(size)]
        if let language { params["language"] = .string(language) }
        let content = try TextTestSupport.content(params)
        let ours = content.layout.glyphs
        let expected = try TextTestSupport.hbShape(font: font, text: text, extra: extra)
        #expect(ours.map { Int($0.glyph) } == expected.map(\.g), "glyph ids differ from hb-shape for \(text)")
        guard ours.count == expected.count, let first = ours.first else { return ours }
        let k = size / first.face.unitsPerEm
        let line = try #require(content.layout.lines.first)
        var pen = 0.0
        for (g, e) in zip(ours, expected) {
            #expect(abs(g.x - (line.x + (pen + Double(e.dx)) * k)) < 0.01, "x of glyph \(e.g) in \(text)")
            #expect(abs(g.y - (line.baseline - Double(e.dy) * k)) < 0.01, "y of glyph \(e.g) in \(text)")
            pen += Double(e.ax)
        }
        #expect(abs(line.width - pen * k) < 0.01)
        return ours
    }

    @Test func latinKerning() throws {
        _ = try compare(font: TextTestSupport.dejaVu, text: "AVATAR")
        let kerned = try TextTestSupport.hbShape(font: TextTestSupport.dejaVu, text: "AVATAR")
        let plain = try TextTestSupport.hbShape(font: TextTestSupport.dejaVu, text: "AVATAR", extra: ["--features=-kern"])
        #expect(kerned.map(\.ax).reduce(0, +) < plain.map(\.ax).reduce(0, +), "AVATAR is kerned tighter")
    }

    @Test func ligature() throws {
        let glyphs = try compare(font: TextTestSupport.dejaVu, text: "ffi")
        #expect(glyphs.count == 1, "ffi is one ligature glyph")
    }

    @Test func arabicIsShapedRightToLeftAndJoined() throws {
        let text = "مرحبا بالعالم"
        let glyphs = try compare(font: TextTestSupport.notoArabic, text: text, size: 24)
        // Visual order: the first letter is drawn rightmost.
        let firstLetter = try #require(glyphs.first { $0.cluster == 0 })
        #expect(glyphs.allSatisfy { $0.x <= firstLetter.x + 0.001 })
        // Joined forms differ from the isolated forms of the same letters.
        let word = "مرحبا"
        let joined = try TextTestSupport.hbShape(font: TextTestSupport.notoArabic, text: word)
        var isolated: [TextTestSupport.HBGlyph] = []
        for letter in word { isolated += try TextTestSupport.hbShape(font: TextTestSupport.notoArabic, text: String(letter)) }
        #expect(Set(joined.map(\.g)) != Set(isolated.map(\.g)))
        #expect(joined.map(\.ax).reduce(0, +) != isolated.map(\.ax).reduce(0, +))
    }

    @Test func devanagariConjunctsAndReordering() throws {
        let glyphs = try compare(font: TextTestSupport.notoDevanagari, text: "नमस्ते दुनिया", size: 24)
        #expect(glyphs.count < "नमस्ते दुनिया".unicodeScalars.count, "conjuncts and matras merge glyphs")
    }

    @Test func thaiMarksStackOnTheirBase() throws {
        let font = "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf"
        let glyphs = try compare(font: font, text: "สวัสดีครับ ที่นี่", size: 24)
        // Above-base marks are placed with offsets or zero advances over their base.
        let expected = try TextTestSupport.hbShape(font: font, text: "สวัสดีครับ ที่นี่")
        #expect(expected.contains { $0.ax == 0 }, "marks take no advance")
        #expect(glyphs.count == expected.count)
    }

    @Test func combiningMarksAreShapedWithTheirBase() throws {
        let text = "e\u{0301}a\u{0308}o\u{0323}\u{0302}"
        let glyphs = try compare(font: TextTestSupport.dejaVu, text: text)
        #expect(glyphs.count >= 3)
    }

    @Test func japanese() throws {
        _ = try compare(font: TextTestSupport.ipaGothic, text: "東京タワーへ行きましょう。", size: 20, language: "ja")
    }

    @Test func languageSelectsLocalisedForms() throws {
        let font = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
        let plain = try compare(font: font, text: "бгдпт")
        let serbian = try compare(font: font, text: "бгдпт", language: "sr", extra: ["--language=sr"])
        #expect(plain.map(\.glyph) != serbian.map(\.glyph), "Serbian forms differ")
    }

}
