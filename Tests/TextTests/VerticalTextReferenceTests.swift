import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Vertical glyphs and advances compared with hb-shape top to bottom (`make test`).
@Suite struct VerticalTextReferenceTests {
    let base = VerticalTextTests()

    @Test func glyphsAndAdvancesMatchHbShapeTopToBottom() throws {
        let text = "縦書き、「テスト」。ちょっと"
        let content = try base.vertical(text)
        let reference = try base.hbShapeTTB(text)
        let glyphs = content.layout.glyphs
        #expect(glyphs.map { Int($0.glyph) } == reference.map(\.g))
        // Pen steps down by -ay (font units → 20 px at IPAGothic's 2048 units per em).
        let k = 20 / (glyphs.first?.face.unitsPerEm ?? 1)
        let expectedLength = Double(reference.map { -$0.ay }.reduce(0, +)) * k
        #expect(abs(content.layout.lines[0].width - expectedLength) < 0.01)
        // vert forms: the comma, brackets and full stop differ from their horizontal glyphs.
        let horizontal = try TextTestSupport.hbShape(font: TextTestSupport.ipaGothic, text: text)
        let differing = zip(reference.map(\.g), horizontal.map(\.g)).filter { $0 != $1 }.count
        #expect(differing >= 4, "vertical forms for 、「」。 (\(differing) differ)")
        #expect(glyphs.allSatisfy { !$0.rotated })
    }
}
