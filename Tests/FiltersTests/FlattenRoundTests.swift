import SumiKit
import Testing
@testable import SumiFilters

/// `flatten` against source-over computed here; `round` by the area it keeps.
@Suite struct FlattenRoundTests {
    let noise = TestImage.noise(31, 17)

    @Test func flattenIsSourceOver() throws {
        let background = Color(red: 200, green: 30, blue: 90)
        let out = try StageHarness(FlattenStage.self).runImage(["background": .color(background)], inputs: ["in": .image(noise)])
        #expect(out.metadata.knownOpaque)
        for i in stride(from: 0, to: noise.pixels.count, by: 4) {
            let uncovered = 255 - Double(noise.pixels[i + 3])
            for (c, under) in [background.red, background.green, background.blue, 255].enumerated() {
                let expected = Double(noise.pixels[i + c]) + Double(under) * uncovered / 255
                #expect(abs(Double(out.pixels[i + c]) - expected) <= 0.51)
            }
        }
    }

    @Test func flattenOntoTranslucentKeepsItTranslucent() throws {
        let out = try StageHarness(FlattenStage.self).runImage(["background": .color(.transparent)], inputs: ["in": .image(noise)])
        #expect(out.pixels == noise.pixels)
        #expect(!out.metadata.knownOpaque)
    }

    func coverage(_ image: Image) -> Double {
        stride(from: 3, to: image.pixels.count, by: 4).reduce(0.0) { $0 + Double(image.pixels[$1]) / 255 }
    }

    /// The kept area is the rectangle less (4 − π)·r² within a pixel per corner's arc; corners are
    /// transparent, the middle untouched.
    @Test(arguments: [5.0, 12.5, 30])
    func roundedCornersKeepTheRoundedArea(radius: Double) throws {
        let image = Image(width: 90, height: 64, fill: Color(red: 250, green: 120, blue: 10))
        let out = try StageHarness(RoundStage.self).runImage(["radius": .number(radius)], inputs: ["in": .image(image)])
        let expected = 90.0 * 64 - (4 - Double.pi) * radius * radius
        #expect(abs(coverage(out) - expected) <= 2 * Double.pi * radius * 0.05 + 1, "\(coverage(out)) vs \(expected)")
        #expect(out.pixel(x: 0, y: 0).a == 0 && out.pixel(x: 89, y: 63).a == 0)
        #expect(out.pixel(x: 45, y: 32) == (250, 120, 10, 255))
        #expect(FilterReference.isPremultiplied(out))
        // Antialiased: some edge pixels are partly covered.
        #expect(stride(from: 3, to: out.pixels.count, by: 4).contains { out.pixels[$0] > 0 && out.pixels[$0] < 255 })
        #expect(!out.metadata.knownOpaque)
    }

    @Test func circleOfASquare() throws {
        let image = Image(width: 80, height: 80, fill: .white)
        let out = try StageHarness(RoundStage.self).runImage(["circle": .bool(true)], inputs: ["in": .image(image)])
        #expect(abs(coverage(out) - Double.pi * 40 * 40) <= 10)
        #expect(out.pixel(x: 40, y: 0).a >= 128 && out.pixel(x: 5, y: 5).a == 0 && out.pixel(x: 40, y: 40).a == 255)
    }
}
