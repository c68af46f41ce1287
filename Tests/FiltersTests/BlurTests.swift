import SumiKit
import Testing
@testable import SumiFilters

/// `blur` and `sharpen` against a plain double-precision convolution computed here, their edges,
/// alpha, and the rows they hold.
@Suite struct BlurTests {
    let noise = TestImage.noise(37, 29)

    @Test(arguments: [0.5, 1, 2, 3.7])
    func blurIsTheGaussianWithExtendedEdges(sigma: Double) throws {
        for image in [noise, FilterReference.opaque(41, 23)] {
            let out = try StageHarness(BlurStage.self).runImage(["sigma": .number(sigma)], inputs: ["in": .image(image)])
            let reference = FilterReference.blur(image, sigma: sigma)
            // Float sums round within a hair of the double ones.
            #expect(FilterReference.largestDifference(Array(out.pixels), reference) <= 0.51, "sigma \(sigma)")
            #expect(FilterReference.isPremultiplied(out))
        }
    }

    @Test func radiusIsSigma() throws {
        let harness = StageHarness(BlurStage.self)
        let bySigma = try harness.runImage(["sigma": .number(2.5)], inputs: ["in": .image(noise)])
        let byRadius = try harness.runImage(["radius": .number(2.5)], inputs: ["in": .image(noise)])
        #expect(bySigma.pixels == byRadius.pixels)
        let unblurred = try harness.runImage(["sigma": .number(1)], inputs: ["in": .image(noise)])
        #expect(try harness.runImage([:], inputs: ["in": .image(noise)]).pixels == unblurred.pixels)
    }

    @Test func flatColourStaysFlatAndOpaqueStaysKnown() throws {
        var flat = Image(width: 30, height: 50, fill: Color(red: 10, green: 200, blue: 99))
        flat.metadata.knownOpaque = true
        for stage in [StageDefinition(BlurStage.self), StageDefinition(SharpenStage.self)] {
            let out = try StageHarness(definition: stage).runImage(["sigma": .number(4)], inputs: ["in": .image(flat)])
            #expect(out.pixels == flat.pixels, "\(stage.descriptor.name)")
            #expect(out.metadata.knownOpaque, "\(stage.descriptor.name)")
        }
        let translucent = TestImage.noise(8, 8)
        #expect(!(try StageHarness(BlurStage.self).runImage([:], inputs: ["in": .image(translucent)]).metadata.knownOpaque))
    }

    /// One pixel wide or high, and one pixel: the edges stand in for every tap; and rows of several
    /// segments of the horizontal pass, the last one odd.
    @Test func thinImages() throws {
        for (w, h) in [(1, 40), (40, 1), (1, 1), (3, 2), (601, 9)] {
            let image = TestImage.noise(w, h, seed: UInt32(w * 100 + h))
            let out = try StageHarness(BlurStage.self).runImage(["sigma": .number(3)], inputs: ["in": .image(image)])
            #expect(FilterReference.largestDifference(Array(out.pixels), FilterReference.blur(image, sigma: 3)) <= 0.51, "\(w)x\(h)")
        }
    }

    /// Unsharp: where the difference from the blur reaches the threshold, value + amount × it.
    @Test func sharpenIsTheUnsharpMask() throws {
        let image = FilterReference.opaque(33, 27)
        let blurred = FilterReference.blur(image, sigma: 1.5)
        let out = try StageHarness(SharpenStage.self).runImage(
            ["sigma": .number(1.5), "amount": .number(1.5), "threshold": .number(3)], inputs: ["in": .image(image)])
        var worst = 0.0
        for i in 0..<image.pixels.count {
            let v = Double(image.pixels[i])
            let difference = v - (blurred[i] + 0.5).rounded(.down)
            let expected = i % 4 == 3 ? v : (abs(difference) >= 3 ? min(255, max(0, v + 1.5 * difference)) : v)
            worst = max(worst, abs(Double(out.pixels[i]) - expected))
        }
        #expect(worst <= 1.01)
        // An edge gains contrast: the sharpened image differs from the source more than by rounding.
        #expect(zip(out.pixels, image.pixels).contains { abs(Int($0) - Int($1)) > 20 })
    }

    @Test func sharpenKeepsAlphaAndPremultiplication() throws {
        let out = try StageHarness(SharpenStage.self).runImage(["amount": .number(4)], inputs: ["in": .image(noise)])
        #expect(FilterReference.isPremultiplied(out))
        #expect(stride(from: 3, to: out.pixels.count, by: 4).allSatisfy { out.pixels[$0] == noise.pixels[$0] })
        let untouched = try StageHarness(SharpenStage.self).runImage(["threshold": .number(255)], inputs: ["in": .image(noise)])
        #expect(untouched.pixels == noise.pixels)
    }

    /// The kernel's rings are as tall as the kernel plus one band whatever the image's height, and
    /// the input is never held past its ring.
    @Test func rowsHeldDoNotGrowWithHeight() throws {
        let kernel = GaussianKernel(sigma: 2)
        var slots: [Int] = []
        for height in [300, 3000] {
            let image = TestImage.noise(16, height)
            let output = RowStream(capacity: Int.max)
            slots.append(try GaussianRows(kernel: kernel, workers: 2).run(RowStream.whole(image), into: output,
                                                                          metadata: image.metadata, writer: BlurStage.Blurred()))
            output.finish()
            #expect(try output.image().height == height)
        }
        #expect(slots == [kernel.taps + 31, kernel.taps + 31])
        let run = try StageHarness(BlurStage.self).runRing(["sigma": .number(2)], inputs: ["in": .image(TestImage.noise(9, 400))],
                                                           pattern: RingPattern(capacity: 5, bands: [3]))
        #expect(run.inputs["in"].map { $0.mostRowsHeld <= $0.slots } == true)
    }

    /// Two threads give the bytes of one.
    @Test func threadsDoNotChangeTheResult() throws {
        let image = TestImage.noise(2000, 70)
        let kernel = GaussianKernel(sigma: 1.3)
        var results: [PixelBuffer] = []
        for workers in [1, 2, 4] {
            let output = RowStream(capacity: Int.max)
            _ = try GaussianRows(kernel: kernel, workers: workers).run(RowStream.whole(image), into: output,
                                                                       metadata: image.metadata, writer: SharpenStage.UnsharpMask(amount: 1, threshold: 0))
            output.finish()
            results.append(try output.image().pixels)
        }
        #expect(results[0] == results[1] && results[1] == results[2])
    }

    /// A ring that would pass its bound is refused before any row is read, naming sigma.
    @Test func aHugeRingIsRefused() throws {
        let wide = RowStream(capacity: 4)
        try wide.begin(ImageShape(width: 200_000, height: 4000, metadata: ImageMetadata()))
        do {
            _ = try GaussianRows(kernel: GaussianKernel(sigma: 50)).run(wide, into: RowStream(capacity: 4),
                                                                        metadata: ImageMetadata(), writer: BlurStage.Blurred())
            Issue.record("a ring of a gigabyte was allowed")
        } catch let error as StageError {
            #expect(error.isLimit && error.parameter == "sigma", "\(error)")
            #expect(wide.releasedRows == 0)
        }
    }
}
