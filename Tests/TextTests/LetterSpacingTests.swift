import SumiKit
import Testing
@testable import SumiText

/// `letter-spacing` as CSS Text 3 asks: cursive scripts (Arabic, Mongolian...) keep their joined
/// forms and their advances, other scripts in the same paragraph are spaced.
@Suite struct LetterSpacingTests {
    static let arabic = "مرحبا بالعالم"
    static let notoMongolian = "/usr/share/fonts/truetype/noto/NotoSansMongolian-Regular.ttf"

    func layout(_ text: String, font: String, spacing: Double, _ extra: [String: ParamValue] = [:]) throws -> TextLayout {
        var parameters: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(24),
                                                "letter-spacing": .number(spacing)]
        parameters.merge(extra) { $1 }
        return try TextTestSupport.content(parameters).layout
    }

    @Test func arabicKeepsHarfBuzzJoinedFormsWhileLatinIsSpaced() throws {
        let latin = "Sumi "
        let text = latin + Self.arabic
        let font = "Noto Sans Arabic, DejaVu Sans"
        let spaced = try layout(text, font: font, spacing: 6)
        let plain = try layout(text, font: font, spacing: 0)
        let latinClusters = 0..<latin.unicodeScalars.count
        // The Arabic glyphs, in visual order, against hb-shape on the Arabic alone (its joined forms).
        let expected = try TextTestSupport.hbShape(font: TextTestSupport.notoArabic, text: Self.arabic)
        let arabicGlyphs = spaced.glyphs.filter { !latinClusters.contains($0.cluster) }
        #expect(arabicGlyphs.map { Int($0.glyph) } == expected.map(\.g), "joined forms as hb-shape gives them")
        let isolated = try TextTestSupport.hbShape(font: TextTestSupport.notoArabic, text: "م ر ح ب ا")
        #expect(!Set(expected.map(\.g)).isSubset(of: Set(isolated.map(\.g))), "the reference joins its letters")
        // Arabic advances are hb-shape's, unspaced: each glyph's pen position differs from the
        // next by its own advance (offsets, then the advance, in font units scaled to 24 px).
        let first = try #require(arabicGlyphs.first)
        let k = 24 / first.face.unitsPerEm
        var pen = first.x - Double(try #require(expected.first).dx) * k
        for (g, e) in zip(arabicGlyphs, expected) {
            #expect(abs(g.x - (pen + Double(e.dx) * k)) < 0.01, "Arabic glyph \(e.g) moved by letter-spacing")
            pen += Double(e.ax) * k
        }
        // Latin clusters (and the space after them) are 6 px further apart than unspaced.
        func starts(_ layout: TextLayout) -> [Double] {
            latinClusters.compactMap { c in layout.glyphs.first { $0.cluster == c }?.x }
        }
        let a = starts(spaced), b = starts(plain)
        #expect(a.count == latinClusters.count)
        for i in 1..<a.count { #expect(abs((a[i] - a[i - 1]) - (b[i] - b[i - 1]) - 6) < 1e-6, "Latin cluster \(i)") }
        // Five Latin clusters are spaced, the Arabic ones not at all.
        #expect(abs(spaced.lines[0].width - plain.lines[0].width - 5 * 6) < 1e-6,
                "width \(spaced.lines[0].width) vs \(plain.lines[0].width)")
    }

    /// Mongolian, cursive and set in vertical columns, keeps its advances along the column.
    @Test func mongolianColumnIsNotSpaced() throws {
        let text = "ᠮᠣᠩᠭᠣᠯ ᠪᠢᠴᠢᠭ"
        let vertical: [String: ParamValue] = ["writing-mode": .string("vertical-rl")]
        let spaced = try layout(text, font: Self.notoMongolian, spacing: 8, vertical)
        let plain = try layout(text, font: Self.notoMongolian, spacing: 0, vertical)
        #expect(spaced.glyphs.map(\.glyph) == plain.glyphs.map(\.glyph))
        #expect(zip(spaced.glyphs, plain.glyphs).allSatisfy { abs($0.y - $1.y) < 1e-9 && abs($0.x - $1.x) < 1e-9 })
        // Latin in the same column still is.
        let mixed = try layout("ab" + text, font: "Noto Sans Mongolian, DejaVu Sans", spacing: 8, vertical)
        let mixedPlain = try layout("ab" + text, font: "Noto Sans Mongolian, DejaVu Sans", spacing: 0, vertical)
        #expect(abs(mixed.lines[0].width - mixedPlain.lines[0].width - 2 * 8) < 1e-6)
    }

    @Test func inspectSaysCursiveScriptsAreNotSpaced() throws {
        let spec = try #require(TextStage.descriptor.parameters.first { $0.name == "letter-spacing" })
        #expect(spec.summary.contains("cursive") && spec.summary.contains("Arabic"))
    }
}
