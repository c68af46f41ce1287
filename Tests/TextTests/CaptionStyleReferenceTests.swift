import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Shaping with features and variation axes compared with HarfBuzz's hb-shape (`make test`).
@Suite struct CaptionStyleReferenceTests {
    let base = CaptionStyleTests()

    @Test func featuresShapeAsHbShapeDoes() throws {
        for features in ["-liga", "-kern", "-liga, -kern", "liga"] {
            let ours = try base.content("office AVATAR ffi", ["features": .string(features)]).layout.glyphs.map { Int($0.glyph) }
            let reference = try TextTestSupport.hbShape(font: TextTestSupport.dejaVu, text: "office AVATAR ffi",
                                                        extra: ["--features=\(features.replacingOccurrences(of: " ", with: ""))"])
            #expect(ours == reference.map(\.g), "features \(features)")
        }
        let plain = try base.content("office").layout.glyphs.count
        let noLigatures = try base.content("office", ["features": .string("-liga")]).layout.glyphs.count
        #expect(noLigatures > plain, "DejaVu's ffi ligature is off with -liga")
        #expect(throws: StageError.self) { _ = try base.content("x", ["features": .string("palt, ++")]) }
    }

    @Test func weightAxisMatchesHbShapeAndThickensStems() throws {
        let text = "Hamburgefonstiv"
        func run(_ variations: String) throws -> TextLayerContent {
            try TextTestSupport.content(["text": .string(text), "font": .string(VariationTests.inter), "size": .number(40),
                                         "variations": .string(variations)])
        }
        let regular = try run(""), bold = try run("wght=800")
        for (content, axis) in [(regular, "wght=400"), (bold, "wght=800")] {
            let reference = try TextTestSupport.hbShape(font: VariationTests.inter, text: text, extra: ["--variations=\(axis)"])
            let ours = content.layout.glyphs
            #expect(ours.map { Int($0.glyph) } == reference.map(\.g))
            // The line is as wide as hb-shape's advances (font units) at 40 px.
            let upem = ours.first.map { $0.face.unitsPerEm } ?? 1
            let total = Double(reference.map(\.ax).reduce(0, +)) * 40 / upem
            #expect(abs(content.layout.lines[0].width - total) < 0.01, "\(axis): \(content.layout.lines[0].width) vs \(total)")
        }
        #expect(bold.layout.lines[0].width > regular.layout.lines[0].width)
        // The outlines are bolder too: more ink per pixel of width.
        func inkPerWidth(_ c: TextLayerContent) throws -> Double {
            let img = try c.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
            var sum = 0
            for i in stride(from: 3, to: img.pixels.count, by: 4) { sum += Int(img.pixels[i]) }
            return Double(sum) / c.layout.lines[0].width
        }
        #expect(try inkPerWidth(bold) > 1.3 * inkPerWidth(regular))
        #expect(throws: StageError.self) { _ = try run("wght") }
    }
}
