import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Caption styles: outline, drop shadow, rounded box, letter spacing, OpenType features.
@Suite struct CaptionStyleTests {
    let red = Color(red: 255, green: 0, blue: 0)

    func content(_ text: String, _ extra: [String: ParamValue] = [:]) throws -> TextLayerContent {
        var params: [String: ParamValue] = ["text": .string(text), "font": .string(TextTestSupport.dejaVu), "size": .number(40)]
        for (k, v) in extra { params[k] = v }
        return try TextTestSupport.content(params)
    }

    func image(_ c: TextLayerContent, scale: Double = 1) throws -> Image {
        try c.rasterize(scaleX: scale, scaleY: scale, phase: Point(x: 0, y: 0))
    }

    /// The layer at padding 0 holds as much ink as at padding 30.
    func expectNothingCut(_ text: String, _ extra: [String: ParamValue]) throws {
        func ink(_ padding: Double) throws -> Int {
            var e = extra
            e["padding"] = .number(padding)
            let img = try image(try content(text, e), scale: 2)
            var sum = 0
            for i in stride(from: 3, to: img.pixels.count, by: 4) { sum += Int(img.pixels[i]) }
            return sum
        }
        let tight = try ink(0), roomy = try ink(30)
        #expect(abs(Double(roomy - tight)) / Double(max(1, roomy)) < 0.002, "\(text) \(extra): \(tight) vs \(roomy)")
    }

    @Test func letterSpacingAddsAfterEachCharacterButTheLast() throws {
        let plain = try content("Sumi")
        let spaced = try content("Sumi", ["letter-spacing": .number(5)])
        #expect(abs(spaced.layout.lines[0].width - plain.layout.lines[0].width - 15) < 1e-6)
        // Clusters, not glyphs: a base with its mark gets one space.
        let marked = try content("e\u{301}e", ["letter-spacing": .number(5)])
        let bare = try content("e\u{301}e")
        #expect(abs(marked.layout.lines[0].width - bare.layout.lines[0].width - 5) < 1e-6)
    }

    @Test func outlineIsDrawnUnderTheFillAndInsideTheLayer() throws {
        let plain = try content("Hi", ["color": .color(.white)])
        let outlined = try content("Hi", ["color": .color(.white), "stroke": .number(3), "stroke-color": .color(red)])
        try expectNothingCut("Hi", ["stroke": .number(3)])
        for scale in [1.0, 7.7] {
            let a = try image(plain, scale: scale), b = try image(outlined, scale: scale)
            let inkA = try #require(TextTestSupport.inkBounds(a, threshold: 128))
            let inkB = try #require(TextTestSupport.inkBounds(b, threshold: 128))
            // Grown by the stroke on each side.
            let grown = Double(inkB.x.count - inkA.x.count) / 2
            #expect(abs(grown - 3 * scale) <= 1.5, "at \(scale)x the outline adds \(grown) px a side")
            #expect(inkB.x.lowerBound >= 0 && inkB.x.upperBound <= b.width && inkB.y.upperBound <= b.height)
            // The fill stays on top: the middle of the H's left stem is white, just outside it red.
            let dx = Int(((outlined.size.width - plain.size.width) / 2 * scale).rounded())
            let dy = Int(((outlined.size.height - plain.size.height) / 2 * scale).rounded())
            let stemX = inkA.x.lowerBound + Int(2 * scale), midY = (inkA.y.lowerBound + inkA.y.upperBound) / 2
            #expect(b.color(x: stemX + dx, y: midY + dy) == .white)
            let outside = b.color(x: inkA.x.lowerBound + dx - Int(1.5 * scale), y: midY + dy)
            #expect(outside.red > 200 && outside.green < 60 && outside.alpha > 200, "\(outside)")
        }
    }

    @Test func dropShadowIsOffsetBlurredAndKeptInTheLayer() throws {
        let sharp = try content("I", ["color": .color(.black), "shadow": .string("6, 4, 0, #ff0000")])
        try expectNothingCut("I", ["shadow": .string("6, 4, 0, #ff0000")])
        try expectNothingCut("I", ["shadow": .string("-3, 2, 4, #0000ff80"), "stroke": .number(2)])
        let img = try image(sharp)
        let ink = try #require(TextTestSupport.inkBounds(img, threshold: 128))
        // The shadow's right edge is 6 px right of the glyph's, all red.
        let right = img.color(x: ink.x.upperBound - 2, y: (ink.y.lowerBound + ink.y.upperBound) / 2)
        #expect(right.red > 200 && right.green < 50, "\(right)")
        let blurred = try content("I", ["color": .color(.black), "shadow": .string("0, 0, 4, red")])
        #expect(blurred.inkOverflow.left > 0, "three sigmas of blur reach past the box")
        let b = try image(blurred)
        let soft = try #require(TextTestSupport.inkBounds(b))
        let hard = try #require(TextTestSupport.inkBounds(b, threshold: 200))
        #expect(hard.x.lowerBound - soft.x.lowerBound >= 6, "the blur fades over several pixels")
        #expect(soft.x.lowerBound >= 0 && soft.x.upperBound <= b.width)
        #expect(throws: StageError.self) { _ = try content("x", ["shadow": .string("1, two, 3")]) }
        #expect(throws: StageError.self) { _ = try content("x", ["shadow": .string("1, 2, -3, red")]) }
        #expect(throws: StageError.self) { _ = try content("x", ["shadow": .string("1, 2, 3, notacolour")]) }
    }

    @Test func roundedBoxCorners() throws {
        let c = try content("Hi", ["background": .color(red), "padding": .number(12), "corner-radius": .number(12),
                                   "color": .color(.white)])
        for scale in [1.0, 3.0] {
            let img = try image(c, scale: scale)
            #expect(img.color(x: 0, y: 0).alpha == 0, "the corner is cut")
            #expect(img.color(x: img.width - 1, y: img.height - 1).alpha == 0)
            #expect(img.color(x: img.width / 2, y: 0) == red, "straight edges are full")
            #expect(img.color(x: 0, y: img.height / 2) == red)
            // On the diagonal the edge is at r(1 - 1/√2) ≈ 3.5 px from the corner at 1x.
            let d = Int((12 * scale * (1 - 1 / 2.squareRoot())).rounded())
            #expect(img.color(x: d - 2, y: d - 2).alpha < 60)
            #expect(img.color(x: d + 2, y: d + 2).alpha > 200)
        }
    }
}

/// Variable fonts: axis values reach both the shaper (advances) and the outlines (ink).
@Suite struct VariationTests {
    static let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"

}
