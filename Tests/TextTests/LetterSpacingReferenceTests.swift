import SumiKit
import Testing
@testable import SumiText

/// Letter spacing keeps the joined forms hb-shape gives (`make test`).
@Suite struct LetterSpacingReferenceTests {
    let base = LetterSpacingTests()

    @Test func arabicKeepsHarfBuzzJoinedFormsWhileLatinIsSpaced() throws {
        let latin = "Sumi "
        let text = latin + LetterSpacingTests.arabic
        let font = "Noto Sans Arabic, DejaVu Sans"
        let spaced = try base.layout(text, font: font, spacing: 6)
        let plain = try base.layout(text, font: font, spacing: 0)
        let latinClusters = 0..<latin.unicodeScalars.count
        // The Arabic glyphs, in visual order, against hb-shape on the Arabic alone (its joined forms).
        let expected = try TextTestSupport.hbShape(font: TextTestSupport.notoArabic, text: LetterSpacingTests.arabic)
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
}
