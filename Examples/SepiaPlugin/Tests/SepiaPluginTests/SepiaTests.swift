import SepiaPlugin
import SumiPluginSDK
import Testing

/// A plugin's stages are tested like built-in ones: through `StageHarness`, without the CLI or files.
@Suite struct SepiaTests {
    /// A 2x1 image: pure blue, then half-transparent grey.
    let input = Image(width: 2, height: 1, pixels: [0, 0, 255, 255, 64, 64, 64, 128])

    @Test func fullAmountGivesSepiaTone() throws {
        let out = try StageHarness(Sepia.self).runImage([:], inputs: ["in": .image(input)])
        #expect(out.width == 2 && out.height == 1)
        let blue = out.pixel(x: 0, y: 0)
        // Pure blue (0, 0, 255) becomes (0.189, 0.168, 0.131) * 255.
        #expect(blue == (48, 43, 33, 255))
        let grey = out.pixel(x: 1, y: 0)
        #expect(grey.r > grey.g && grey.g > grey.b)
        #expect(grey.a == 128 && grey.r <= 128)
    }

    @Test func zeroAmountKeepsPixels() throws {
        let out = try StageHarness(Sepia.self).runImage(["amount": .number(0)], inputs: ["in": .image(input)])
        #expect(out.pixels == input.pixels)
    }

    /// The streamed path (what Sumi runs when the image streams, here through every ring pattern of
    /// the harness: a ring of one row, bands that never line up, wrap-around) gives the pixels of the
    /// whole-image call, and toning changed them.
    @Test(arguments: RingPattern.standard)
    func bandsGiveTheWholeImagePixels(pattern: RingPattern) throws {
        let image = Image(width: 9, height: 23, pixels: (0..<9 * 23 * 4).map { i in
            let alpha = UInt8(truncatingIfNeeded: (i / 4) * 11)
            return i % 4 == 3 ? alpha : min(alpha, UInt8(truncatingIfNeeded: i * 37))
        })
        for amount in [1.0, 0.4] {
            let harness = StageHarness(Sepia.self)
            let whole = try harness.runImage(["amount": .number(amount)], inputs: ["in": .image(image)])
            let run = try harness.runRing(["amount": .number(amount)], inputs: ["in": .image(image)], pattern: pattern)
            guard case .image(let streamed) = run.value else {
                Issue.record("the streamed path gave no image")
                continue
            }
            #expect(streamed.pixels == whole.pixels && whole.pixels != image.pixels)
        }
    }

    @Test func amountOutOfRangeIsRefused() {
        #expect(throws: StageError.self) {
            try StageHarness(Sepia.self).make(["amount": .number(2)])
        }
    }
}
