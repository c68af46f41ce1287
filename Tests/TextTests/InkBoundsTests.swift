import Foundation
import SumiKit
import Testing
@testable import SumiText

/// The layer holds all glyph ink at any padding; orphan marks sit on a dotted circle; baselines
/// fall on whole pixels at the final scale.
@Suite struct InkBoundsTests {
    static let dejaVuOblique = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf"

    /// Total alpha and the image.
    func render(_ params: [String: ParamValue], padding: Double, scale: Double) throws -> (ink: Int, image: Image) {
        var p = params
        p["padding"] = .number(padding)
        let image = try TextTestSupport.content(p).rasterize(scaleX: scale, scaleY: scale, phase: Point(x: 0, y: 0))
        var sum = 0
        for i in stride(from: 3, to: image.pixels.count, by: 4) { sum += Int(image.pixels[i]) }
        return (sum, image)
    }

    @Test(arguments: [
        ("بِسْمِ اللهِ الرَّحْمٰنِ", TextTestSupport.notoArabic, 1.0),
        ("a\u{301}\u{302}\u{303}\u{304}\u{306}\u{307}\u{308}\u{30A}\u{316}\u{317}\u{318}\u{319}\u{31C}\u{323}", TextTestSupport.dejaVu, 1.0),
        ("jag Åsa fjord", TextTestSupport.dejaVu, 1.0),
        ("fff ggg", dejaVuOblique, 1.0),
        ("Ǻjqy ÅÉ", TextTestSupport.dejaVu, 0.6),
    ])
    func noInkIsCutAtPaddingZero(text: String, font: String, lineHeight: Double) throws {
        let params: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(24),
                                            "line-height": .number(lineHeight)]
        for scale in [1.0, 2.5, 7.7] {
            let tight = try render(params, padding: 0, scale: scale)
            let roomy = try render(params, padding: 40, scale: scale)
            let lost = Double(roomy.ink - tight.ink) / Double(max(1, roomy.ink))
            #expect(abs(lost) < 0.002, "\(text) at \(scale)x: \(String(format: "%.2f", lost * 100))% of the ink is lost")
            // The ink touches the layer's edges only where it must: its box fits inside.
            if let bounds = TextTestSupport.inkBounds(tight.image) {
                #expect(bounds.x.lowerBound >= 0 && bounds.x.upperBound <= tight.image.width)
            }
        }
    }

    @Test func layerGrowsOnlyWhereInkLeavesTheBox() throws {
        let plain = try TextTestSupport.content(["text": .string("Hello"), "font": .string(TextTestSupport.dejaVu),
                                                 "size": .number(20)])
        #expect(plain.inkOverflow == .zero)
        #expect(plain.size == plain.boxSize)
        let hook = try TextTestSupport.content(["text": .string("jump"), "font": .string(TextTestSupport.dejaVu),
                                                "size": .number(40)])
        #expect(hook.inkOverflow.left > 0, "the hook of a leading j reaches left of the pen")
        let padded = try TextTestSupport.content(["text": .string("jump"), "font": .string(TextTestSupport.dejaVu),
                                                  "size": .number(40), "padding": .number(10)])
        #expect(padded.inkOverflow == .zero)
    }

    @Test(arguments: [1.0, 1.37, 2.2])
    func baselineFallsOnAWholePixel(scale: Double) throws {
        // 17 px DejaVu: the baseline is at a fractional y; the flat bottoms of "HHH" end on a pixel row.
        let content = try TextTestSupport.content(["text": .string("HHH"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(17)])
        let baseline = content.layout.lines[0].baseline * scale
        #expect(baseline != baseline.rounded(), "the test needs a fractional baseline")
        let image = try content.rasterize(scaleX: scale, scaleY: scale, phase: Point(x: 0, y: 0))
        let bounds = try #require(TextTestSupport.inkBounds(image))
        let bottom = bounds.y.upperBound - 1
        var maxAlpha: UInt8 = 0
        for x in 0..<image.width { maxAlpha = max(maxAlpha, image.pixels[(bottom * image.width + x) * 4 + 3]) }
        #expect(maxAlpha == 255, "the last ink row is whole, not a blurred edge: \(maxAlpha)")
        let distance: Double = abs(Double(bounds.y.upperBound) - baseline)
        #expect(distance <= 0.5 + 1e-9)
    }
}
