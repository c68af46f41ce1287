import Foundation
import SumiKit
import Testing
@testable import SumiText

@Suite struct MixedScriptTests {
    let mixed = "Hello 東京 👋🏽 مرحبا"

    @Test func mixedStringHasNoMissingGlyphsAndColourEmoji() throws {
        let content = try TextTestSupport.content(["text": .string(mixed), "size": .number(40)])
        let glyphs = content.layout.glyphs
        #expect(!glyphs.isEmpty)
        #expect(glyphs.allSatisfy { $0.glyph != 0 }, "a .notdef glyph was drawn")
        let emojiGlyphs = glyphs.filter { $0.face.hasColorBitmaps }
        #expect(emojiGlyphs.count == 1, "waving hand with skin tone is one colour glyph")
        let image = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        try TextTestSupport.savePNG(image, TextTestSupport.tempDirectory + "/mixed.png")
        try TextTestSupport.savePNG(try content.rasterize(scaleX: 3, scaleY: 3, phase: Point(x: 0, y: 0)),
                                    TextTestSupport.tempDirectory + "/mixed-3x.png")
        // Saturated pixels in the emoji's box.
        let e = try #require(emojiGlyphs.first)
        var saturated = 0
        for y in max(0, Int(e.y - 40))..<min(image.height, Int(e.y + 10)) {
            for x in max(0, Int(e.x))..<min(image.width, Int(e.x + 50)) {
                let c = image.color(x: x, y: y)
                guard c.alpha > 200 else { continue }
                let hi = max(c.red, c.green, c.blue), lo = min(c.red, c.green, c.blue)
                if Int(hi) - Int(lo) > 60 { saturated += 1 }
            }
        }
        #expect(saturated > 100, "emoji area has \(saturated) saturated pixels")
    }
}
