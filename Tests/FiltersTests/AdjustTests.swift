#if canImport(Glibc)
import Glibc
#endif
import SumiKit
import Testing
@testable import SumiFilters

/// `adjust` against each operation's formula on straight colour, with alpha kept.
@Suite struct AdjustTests {
    let opaque = FilterReference.opaque(40, 30)
    let noise = TestImage.noise(40, 30)

    func adjust(_ parameters: [String: ParamValue], _ image: Image) throws -> Image {
        try StageHarness(AdjustStage.self).runImage(parameters, inputs: ["in": .image(image)])
    }

    /// The largest difference between `out` and `expected(r, g, b)` applied to each opaque pixel.
    func largestDifference(_ out: Image, _ source: Image, _ expected: (Double, Double, Double) -> (Double, Double, Double)) -> Double {
        var worst = 0.0
        for i in stride(from: 0, to: source.pixels.count, by: 4) {
            let (r, g, b) = expected(Double(source.pixels[i]), Double(source.pixels[i + 1]), Double(source.pixels[i + 2]))
            for (c, v) in [r, g, b].enumerated() {
                worst = max(worst, abs(Double(out.pixels[i + c]) - min(255, max(0, v.rounded()))))
            }
        }
        return worst
    }

    @Test func eachOperationIsItsFormula() throws {
        func luma(_ r: Double, _ g: Double, _ b: Double) -> Double { 0.299 * r + 0.587 * g + 0.114 * b }
        #expect(largestDifference(try adjust(["brightness": .number(1.3)], opaque), opaque) { ($0 * 1.3, $1 * 1.3, $2 * 1.3) } <= 1)
        #expect(largestDifference(try adjust(["contrast": .number(1.7)], opaque), opaque) {
            (($0 - 128) * 1.7 + 128, ($1 - 128) * 1.7 + 128, ($2 - 128) * 1.7 + 128)
        } <= 1)
        #expect(largestDifference(try adjust(["saturation": .number(0.4)], opaque), opaque) { r, g, b in
            let y = luma(r, g, b)
            return (y + 0.4 * (r - y), y + 0.4 * (g - y), y + 0.4 * (b - y))
        } <= 1)
        #expect(largestDifference(try adjust(["grayscale": .bool(true)], opaque), opaque) { r, g, b in
            (luma(r, g, b), luma(r, g, b), luma(r, g, b))
        } <= 1)
        func curve(_ v: Double) -> Double { 255 * pow(v / 255, 1 / 2.2) }
        let gamma = try adjust(["gamma": .number(2.2)], opaque)
        #expect(largestDifference(gamma, opaque) { (curve($0), curve($1), curve($2)) } <= 1)
        #expect(largestDifference(try adjust(["invert": .bool(true)], opaque), opaque) { (255 - $0, 255 - $1, 255 - $2) } == 0)
        #expect(largestDifference(try adjust(["tint": .color(Color(red: 255, green: 128, blue: 0))], opaque), opaque) {
            r, g, _ in (r, g * 128 / 255, 0)
        } <= 1)
    }

    /// Hue turns about the grey axis keeping the luma of CSS `hue-rotate()` (0.213, 0.715, 0.072):
    /// a grey stays grey, a full turn is no change, muted colours keep their luma, red turns green.
    @Test func hueRotates() throws {
        let muted = Image(width: 24, height: 24) { buffer in
            for i in stride(from: 0, to: buffer.count, by: 4) {
                buffer[i] = UInt8(90 + (i / 4) % 60); buffer[i + 1] = UInt8(100 + (i / 96) % 50); buffer[i + 2] = 130; buffer[i + 3] = 255
            }
        }
        let turned = try adjust(["hue": .number(120)], muted)
        #expect(turned.pixels != muted.pixels)
        func luma(_ image: Image, _ i: Int) -> Double {
            0.213 * Double(image.pixels[i]) + 0.715 * Double(image.pixels[i + 1]) + 0.072 * Double(image.pixels[i + 2])
        }
        #expect(stride(from: 0, to: muted.pixels.count, by: 4).allSatisfy { abs(luma(turned, $0) - luma(muted, $0)) <= 1 })
        let grey = Image(width: 4, height: 4, fill: Color(red: 90, green: 90, blue: 90))
        #expect(try adjust(["hue": .number(77)], grey).pixels == grey.pixels)
        #expect(largestDifference(try adjust(["hue": .number(360)], opaque), opaque) { ($0, $1, $2) } <= 1)
        // Pure red turned 120°: CSS's matrix gives (0, 113, 0) once clamped.
        let red = try adjust(["hue": .number(120)], Image(width: 1, height: 1, fill: Color(red: 255, green: 0, blue: 0))).pixel(x: 0, y: 0)
        #expect(red.r == 0 && abs(Int(red.g) - 113) <= 1 && red.b == 0)
    }

    /// On translucent pixels, colour changes and coverage does not: alpha kept, colour at or below
    /// it, and the straight colour adjusted as an opaque pixel of that colour would be.
    @Test func alphaIsKept() throws {
        for parameters: [String: ParamValue] in [["brightness": .number(3)], ["contrast": .number(2)], ["saturation": .number(3)],
                                                  ["gamma": .number(0.5)], ["invert": .bool(true)], ["hue": .number(45)]] {
            let out = try adjust(parameters, noise)
            #expect(stride(from: 3, to: out.pixels.count, by: 4).allSatisfy { out.pixels[$0] == noise.pixels[$0] }, "\(parameters)")
            #expect(FilterReference.isPremultiplied(out), "\(parameters)")
        }
        // Half-covered grey 100 under contrast 2: straight (100 − 128)·2 + 128 = 72, premultiplied 36.
        let half = Image(width: 1, height: 1, pixels: [50, 50, 50, 128])
        let p = try adjust(["contrast": .number(2)], half).pixel(x: 0, y: 0)
        #expect(p.a == 128 && abs(Int(p.r) - 36) <= 1)
        // Inverted: straight 255 − 100 = 155, premultiplied 78.
        let inverted = try adjust(["invert": .bool(true)], half).pixel(x: 0, y: 0)
        #expect(inverted.a == 128 && abs(Int(inverted.r) - 78) <= 1)
    }

    @Test func noChangeIsTheSameBytes() throws {
        #expect(try adjust([:], noise).pixels == noise.pixels)
        #expect(try adjust(["invert": .bool(true)], try adjust(["invert": .bool(true)], noise)).pixels == noise.pixels)
    }

    /// Opaque pixels looked up in the tables get the computed pixels' bytes.
    @Test func tablesGiveTheComputedBytes() throws {
        var adjustment = ColourAdjustment.identity.brightness(1.3).contrast(0.7).tint(red: 200, green: 255, blue: 90).gamma(1.8)
        adjustment.invert = true
        let tables = try #require(adjustment.opaqueTables())
        #expect(ColourAdjustment.identity.saturation(0.5).opaqueTables() == nil)
        var looked = [UInt8](repeating: 0, count: opaque.pixels.count), computed = looked
        opaque.pixels.withUnsafeBufferPointer { source in
            looked.withUnsafeMutableBufferPointer { adjustment.apply(source, into: $0, tables: tables) }
            computed.withUnsafeMutableBufferPointer { adjustment.apply(source, into: $0, tables: nil) }
        }
        #expect(looked == computed)
    }
}
