import Testing
import SumiEngine
import SumiKit

/// A plugin stage with band callbacks (the Sepia example, loaded through the C ABI) run by the host's
/// band loop through small rings driven with odd bands (`RingPattern.standard`): the pixels of its
/// whole-image `process`, and of the sepia matrix computed here.
@Suite struct RingPatternPluginTests {
    /// The sepia tone of premultiplied `pixels` by `amount` (the 0.393/0.769/0.189 matrix, each
    /// channel kept within alpha), written out from the example's documented formula.
    static func sepia(_ pixels: [UInt8], amount: Double) -> [UInt8] {
        var out = pixels
        for i in Swift.stride(from: 0, to: pixels.count, by: 4) {
            let r = Double(pixels[i]), g = Double(pixels[i + 1]), b = Double(pixels[i + 2]), a = Double(pixels[i + 3])
            let tone = [0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b]
            for (c, value) in [r, g, b].enumerated() {
                out[i + c] = UInt8(min(a, max(0, (1 - amount) * value + amount * tone[c])).rounded())
            }
        }
        return out
    }

    @Test(arguments: RingPattern.standard)
    func sepiaBands(pattern: RingPattern) throws {
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: try PluginFixtures.get().sepia, into: registry)
        let harness = StageHarness(definition: try #require(registry.definition(named: "sepia")))
        let image = TestImage.noise(97, 61, seed: 21)
        for amount in [1.0, 0.3] {
            let whole = try harness.runImage(["amount": .number(amount)], inputs: ["in": .image(image)])
            let run = try harness.runRing(["amount": .number(amount)], inputs: ["in": .image(image)], pattern: pattern)
            guard case .image(let banded) = run.value else { Issue.record("no image"); return }
            #expect(banded.width == 97 && banded.height == 61)
            #expect(banded.pixels == whole.pixels, "\(pattern)")
            #expect(banded.pixels == Self.sepia(Array(image.pixels), amount: amount), "\(pattern)")
            let input = try #require(run.inputs["in"]), output = try #require(run.output)
            #expect(input.mostRowsHeld <= input.slots && output.mostRowsHeld <= output.slots)
            if output.slots < 61 { #expect(output.releasedBeforeEnd >= 61 - output.slots) }
        }
    }
}
