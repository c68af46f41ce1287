import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Mark placement compared with HarfBuzz's hb-shape (`make test`).
@Suite struct InkBoundsReferenceTests {
    @Test func orphanMarkSitsOnADottedCircleAsHarfBuzzDoes() throws {
        let text = "\u{301}a"
        let content = try TextTestSupport.content(["text": .string(text), "font": .string(TextTestSupport.dejaVu)])
        let ours = content.layout.glyphs.map { Int($0.glyph) }
        let reference = try TextTestSupport.hbShape(font: TextTestSupport.dejaVu, text: text, extra: ["--bot"])
        #expect(ours == reference.map(\.g))
        #expect(ours.count == 3, "dotted circle, mark, a")
        #expect(content.inkOverflow.left == 0, "nothing is drawn left of the pen")
    }
}
