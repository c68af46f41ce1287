import Foundation
import SumiKit
import Testing
@testable import SumiText

@Suite struct ErrorTests {
    func usageError(_ params: [String: ParamValue]) -> StageError? {
        do { _ = try StageHarness(TextStage.self).run(params) } catch let e as StageError { return e } catch { return nil }
        return nil
    }

    @Test func missingFontFileIsAnInvalidParameter() {
        let e = usageError(["text": .string("x"), "font": .string("/nonexistent/font.ttf")])
        #expect(e?.parameter == "font" && e?.isUsageError == true)
        #expect(e?.message.contains("/nonexistent/font.ttf") == true)
    }

    @Test func fileThatIsNotAFontIsAnError() throws {
        let path = TextTestSupport.tempDirectory + "/not-a-font.ttf"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let e = usageError(["text": .string("x"), "font": .string(path)])
        #expect(e?.parameter == "font")
    }

    @Test func aNamedPipeAsFontIsRefusedWithoutBlocking() throws {
        let path = TextTestSupport.tempDirectory + "/pipe-\(getpid()).ttf"
        unlink(path)
        try #require(mkfifo(path, 0o644) == 0)
        defer { unlink(path) }
        // Opening the pipe to read it would wait for a writer forever.
        let e = usageError(["text": .string("x"), "font": .string(path)])
        #expect(e?.parameter == "font" && e?.isUsageError == true)
        #expect(e?.message == "\(path) is not an OpenType or TrueType font file")
    }

    @Test func unknownFamilyFallsBackWithAWarning() throws {
        let harness = StageHarness(TextStage.self)
        let content = try TextTestSupport.content(["text": .string("Hello 東京"), "font": .string("No Such Family, DejaVu Sans")],
                                                  harness: harness)
        #expect(harness.warnings.count == 1)
        #expect(harness.warnings.first?.contains("No Such Family") == true)
        #expect(content.layout.glyphs.allSatisfy { $0.glyph != 0 })
        #expect(content.layout.glyphs.first?.face.familyName == "DejaVu Sans")
        let quiet = StageHarness(TextStage.self)
        _ = try TextTestSupport.content(["text": .string("x"), "font": .string("dejavu sans")], harness: quiet)
        #expect(quiet.warnings.isEmpty, "family names match without regard to case")
    }

    @Test func emptyTextIsAnInvalidParameter() {
        let e = usageError(["text": .string("")])
        #expect(e?.parameter == "text" && e?.isUsageError == true)
        #expect(usageError(["size": .number(12)])?.parameter == "text", "text is required")
        #expect(usageError(["text": .string("x"), "size": .number(0)])?.parameter == "size")
    }

    @Test func hundredThousandCharactersLayOutInBoundedTime() throws {
        let words = ["lorem", "ipsum", "東京", "مرحبا", "dolor", "sit", "amet"]
        var text = ""
        var i = 0
        while text.unicodeScalars.count < 100_000 { text += words[i % words.count] + " "; i += 1 }
        let clock = ContinuousClock()
        var content: TextLayerContent?
        let elapsed = try clock.measure {
            content = try TextTestSupport.content(["text": .string(text), "size": .number(12), "width": .number(2000)])
        }
        let laid = try #require(content)
        #expect(laid.lineCount > 50)
        #expect(laid.layout.glyphs.allSatisfy { $0.glyph != 0 })
        #expect(elapsed < .seconds(20), "layout took \(elapsed)")
        let drawing = try clock.measure { _ = try laid.rasterize(scaleX: 0.5, scaleY: 0.5, phase: Point(x: 0, y: 0)) }
        #expect(drawing < .seconds(10))
        let image = try laid.rasterize(scaleX: 0.5, scaleY: 0.5, phase: Point(x: 0, y: 0))
        #expect(image.width == Int((laid.size.width * 0.5).rounded(.up)))

        // One cluster a line: still linear.
        let narrow = try clock.measure {
            let c = try TextTestSupport.content(["text": .string(String(text.prefix(30_000))), "size": .number(12), "width": .number(1)])
            #expect(c.lineCount > 20_000)
        }
        #expect(narrow < .seconds(20), "narrow layout took \(narrow)")

        let tooLong = String(repeating: "a", count: TextStage.maxScalars + 1)
        #expect(usageError(["text": .string(tooLong)])?.parameter == "text")
        // 1 MB of Hindi (three bytes a letter) is refused by its length in bytes, which the message gives.
        let hindi = String(repeating: "नमस्ते ", count: 1_000_000 / "नमस्ते ".utf8.count + 1)
        let refused = usageError(["text": .string(hindi)])
        #expect(refused?.parameter == "text" && refused?.isUsageError == true)
        #expect(refused?.message.contains("\(hindi.utf8.count) bytes") == true, "\(refused?.message ?? "")")
    }

    @Test func hugeGlyphInASqueezedLineKeepsItsInkAndIsRefusedPastTheLimits() throws {
        // A 30000 px full block in a line squeezed to about 70 px: the layer still holds all its ink,
        // so it is refused by the size limits at once rather than drawn.
        let content = try TextTestSupport.content(["text": .string("█"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(30_000), "line-height": .number(0.002)])
        #expect(content.size.height > 30_000 && content.size.width > 20_000)
        let clock = ContinuousClock()
        let refused = clock.measure {
            #expect(throws: StageError.self) { try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0)) }
        }
        #expect(refused < .seconds(1))
        // At 500 px it is drawn whole, though its line is 1 px high.
        let small = try TextTestSupport.content(["text": .string("█"), "font": .string(TextTestSupport.dejaVu),
                                                 "size": .number(500), "line-height": .number(0.002)])
        let drawn = try small.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        #expect(drawn.height > 500)
        let bounds = try #require(TextTestSupport.inkBounds(drawn, threshold: 254))
        #expect(bounds.y.lowerBound <= 1 && bounds.y.upperBound >= drawn.height - 1)

        // The same for a colour emoji: the layer is as large as the bitmap's ink.
        let emoji = try TextTestSupport.content(["text": .string("🟥"), "size": .number(400), "line-height": .number(0.002)])
        let e = try emoji.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        #expect(e.height > 300)
        let c = e.color(x: e.width / 2, y: e.height / 2)
        #expect(c.alpha == 255 && c.red > 180 && c.green < 100 && c.blue < 100, "red square, got \(c)")
    }

    @Test func absurdRasterSizesAreRefused() throws {
        let huge = try TextTestSupport.content(["text": .string("x"), "size": .number(1_000_000)])
        #expect(throws: StageError.self) { try huge.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0)) }
        let small = try TextTestSupport.content(["text": .string("Hello")])
        #expect(throws: StageError.self) { try small.rasterize(scaleX: 10_000, scaleY: 10_000, phase: Point(x: 0, y: 0)) }
        #expect(throws: StageError.self) { try small.rasterize(scaleX: .nan, scaleY: 1, phase: Point(x: 0, y: 0)) }
        #expect(throws: StageError.self) { try small.rasterize(scaleX: 0, scaleY: 1, phase: Point(x: 0, y: 0)) }
        // A mark at an absurd size in a squeezed line: the layer holds its enormous ink and is refused.
        let mark = try TextTestSupport.content(["text": .string("\u{0301}"), "size": .number(1e16), "line-height": .number(1e-16)])
        #expect(mark.size.width > 1e10)
        #expect(throws: StageError.self) { try mark.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0)) }
        let huge1 = try TextTestSupport.content(["text": .string("x"), "size": .number(1e300)])
        #expect(throws: StageError.self) { try huge1.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0)) }
    }
}
