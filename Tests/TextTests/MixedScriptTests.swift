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
        TextTestSupport.savePNG(image, TextTestSupport.tempDirectory + "/mixed.png")
        TextTestSupport.savePNG(try content.rasterize(scaleX: 3, scaleY: 3, phase: Point(x: 0, y: 0)),
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

        // The Arabic word runs right to left (its first letter is drawn rightmost); MixedScriptReferenceTests
        // checks with hb-shape that it is joined.
        let arabicStart = mixed.unicodeScalars.count - 5
        let arabic = glyphs.filter { $0.cluster >= arabicStart }
        #expect(arabic.count == 5)
        let first = try #require(arabic.first { $0.cluster == arabicStart })
        #expect(arabic.allSatisfy { $0.x <= first.x })
        #expect(arabic.allSatisfy { $0.x > e.x }, "Arabic follows the emoji in an LTR line")
    }
}

@Suite struct FallbackTests {
    @Test func emojiSequencesAreSingleColourGlyphs() throws {
        // Family (ZWJ sequence), flag, keycap, red heart with VS16, thumbs up with skin tone.
        let text = "👨‍👩‍👧 🇯🇵 1️⃣ ❤️ 👍🏿"
        let content = try TextTestSupport.content(["text": .string(text), "size": .number(30)])
        let glyphs = content.layout.glyphs
        #expect(glyphs.allSatisfy { $0.glyph != 0 })
        #expect(glyphs.filter { $0.face.hasColorBitmaps }.count == 5)
        TextTestSupport.savePNG(try content.rasterize(scaleX: 2, scaleY: 2, phase: Point(x: 0, y: 0)),
                                TextTestSupport.tempDirectory + "/emoji.png")
        // A text-presentation selector keeps a monochrome glyph.
        let plain = try TextTestSupport.content(["text": .string("☺\u{FE0E}"), "size": .number(30)])
        #expect(plain.layout.glyphs.allSatisfy { !$0.face.hasColorBitmaps && $0.glyph != 0 })
    }

    @Test func scriptsFallBackToFontsThatHaveThem() throws {
        let samples = ["नमस्ते", "สวัสดีครับ", "שלום", "Привет", "Γειά σου", "こんにちは", "مرحبا"]
        for sample in samples {
            let content = try TextTestSupport.content(["text": .string(sample), "font": .string(TextTestSupport.dejaVu)])
            #expect(content.layout.glyphs.allSatisfy { $0.glyph != 0 }, "missing glyph in \(sample)")
        }
        // A base and its combining marks stay in one font.
        // Hangul comes from the Korean font the Makefile installs.
        let korean = try TextTestSupport.content(["text": .string("한국어")])
        #expect(korean.layout.glyphs.allSatisfy { $0.glyph != 0 })
        // U+1B000 (Kana Supplement): no installed font has it; the glyph is .notdef and a warning
        // names the character.
        let harness = StageHarness(TextStage.self)
        _ = try TextTestSupport.content(["text": .string("\u{1B000}")], harness: harness)
        #expect(harness.warnings.contains { $0.contains("U+1B000") }, "\(harness.warnings)")
        let marked = try TextTestSupport.content(["text": .string("ก\u{0E34}\u{0E49}"), "font": .string(TextTestSupport.dejaVu)])
        #expect(Set(marked.layout.glyphs.map { ObjectIdentifier($0.face) }).count == 1)
    }

    @Test func familyListWithFontconfigProperties() throws {
        let bold = try TextTestSupport.content(["text": .string("Bold"), "font": .string("DejaVu Sans:bold")])
        #expect(bold.layout.glyphs.allSatisfy { $0.face.path.hasSuffix("DejaVuSans-Bold.ttf") })
        let list = try TextTestSupport.content(["text": .string("Tokyo 東京"), "font": .string("DejaVu Serif, IPAGothic")])
        let paths = Set(list.layout.glyphs.map { TextTestSupport.fileName($0.face.path) })
        #expect(paths == ["DejaVuSerif.ttf", "ipag.ttf"], "got \(paths)")
    }

    @Test func nonUniformScaleStretchesInk() throws {
        let content = try TextTestSupport.content(["text": .string("H"), "font": .string(TextTestSupport.dejaVu), "size": .number(30)])
        let one = try #require(TextTestSupport.inkBounds(try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0)), threshold: 128))
        let wide = try content.rasterize(scaleX: 3, scaleY: 1, phase: Point(x: 0, y: 0))
        #expect(wide.width == Int((content.size.width * 3).rounded(.up)))
        let inkWide = try #require(TextTestSupport.inkBounds(wide, threshold: 128))
        #expect(abs(Double(inkWide.x.count) - 3 * Double(one.x.count)) <= 3)
        #expect(abs(inkWide.y.count - one.y.count) <= 1)
    }
}

@Suite struct ShowcaseTests {
    /// A bordered, wrapped, multi-script block; saved under the test folder to look at.
    @Test func wrappedMultiScriptBlock() throws {
        let text = "Sumi draws every script: नमस्ते दुनिया, สวัสดีครับ, שלום עולם, مرحبا بالعالم 123!\n"
            + "日本語の文章は単語の間に空白がなくても、正しく改行されます。「括弧」も大丈夫。👩🏽‍💻🎉"
        let content = try TextTestSupport.content(["text": .string(text), "size": .number(18), "width": .number(300),
                                                   "padding": .string("8,12,8,12"), "border": .number(1.5),
                                                   "background": .color(Color(red: 255, green: 250, blue: 235)),
                                                   "border-color": .color(Color(red: 40, green: 40, blue: 120)),
                                                   "align": .string("center"), "line-height": .number(1.2)])
        #expect(content.layout.glyphs.allSatisfy { $0.glyph != 0 })
        #expect(content.layout.lines.allSatisfy { $0.width <= 300.001 })
        let image = try content.rasterize(scaleX: 2, scaleY: 2, phase: Point(x: 0.25, y: 0.5))
        TextTestSupport.savePNG(image, TextTestSupport.tempDirectory + "/showcase.png")
        let rtl = try TextTestSupport.content(["text": .string("مرحبا بالعالم، هذا نص عربي طويل يلتف على عدة أسطر."),
                                               "size": .number(20), "width": .number(160), "background": .color(.white)])
        #expect(rtl.layout.lines.count > 1 && rtl.layout.lines.allSatisfy(\.isRightToLeft))
        // Start alignment of a right-to-left paragraph is the right edge.
        for line in rtl.layout.lines { #expect(abs(line.x + line.width - rtl.layout.width) < 0.001) }
        TextTestSupport.savePNG(try rtl.rasterize(scaleX: 2, scaleY: 2, phase: Point(x: 0, y: 0)),
                                    TextTestSupport.tempDirectory + "/arabic.png")
    }
}
