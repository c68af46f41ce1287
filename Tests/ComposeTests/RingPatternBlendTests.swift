import Testing
import SumiKit
import SumiCompose

/// `blend` with its base through small rings driven with odd bands (`RingPattern.standard`): the
/// bytes of the whole-image run for every mode, with layers inside, across and outside the base (a
/// layer as an image list too), and an opaque layer at a whole-pixel place `over` gives
/// exactly the layer's pixels there and the base's elsewhere.
@Suite struct RingPatternBlendTests {
    let base = TestImage.noise(37, 53, seed: 3)
    let layerImage = TestImage.noise(13, 40, seed: 9)
    let harness = StageHarness(BlendStage.self)

    func layer(_ image: Image, at x: Double, _ y: Double) -> Layer {
        var layer = Layer(image: image)
        layer.placement = Placement(origin: Point(x: x, y: y), scaleX: 1, scaleY: 1)
        return layer
    }

    func same(_ parameters: [String: ParamValue], _ inputs: [String: Value], _ pattern: RingPattern) throws -> Image {
        let whole = try harness.runImage(parameters, inputs: inputs)
        let run = try harness.runRing(parameters, inputs: inputs, pattern: pattern)
        guard case .image(let ringed) = run.value else { throw StageError("no image") }
        #expect(ringed.pixels == whole.pixels, "\(parameters) \(pattern)")
        #expect(ringed.metadata.knownOpaque == whole.metadata.knownOpaque)
        #expect(run.inputs["base"].map { $0.mostRowsHeld <= $0.slots } == true)
        #expect(run.inputs["layer"] == nil, "the layer is read whole")
        return ringed
    }

    @Test(arguments: RingPattern.standard)
    func everyModeEqualsTheWholeImage(pattern: RingPattern) throws {
        do {
            for mode in BlendMode.allCases.map(\.rawValue) {
                for (x, y) in [(5.0, 7.0), (-4.0, 30.0), (30.0, -20.0), (12.0, 15.5), (100.0, 3.0)] {
                    _ = try same(["mode": .string(mode), "opacity": .number(0.4)],
                                 ["base": .image(base), "layer": .layer(layer(layerImage, at: x, y))], pattern)
                }
            }
            _ = try same([:], ["base": .image(base), "layer": .images(ImageList([layerImage, TestImage.noise(50, 3, seed: 4)]))], pattern)
        }
    }

    @Test(arguments: RingPattern.standard)
    func anOpaqueLayerReplacesItsRectangle(pattern: RingPattern) throws {
        do {
            let opaque = TestImage.noise(13, 40, seed: 11, minAlpha: 255)
            let out = try same(["mode": .string("over")], ["base": .image(base), "layer": .layer(layer(opaque, at: 6, 9))], pattern)
            for y in 0..<53 {
                for x in 0..<37 {
                    let inside = (6..<19).contains(x) && (9..<49).contains(y)
                    let source = inside ? opaque : base, i = inside ? ((y - 9) * 13 + x - 6) * 4 : (y * 37 + x) * 4
                    guard Array(out.pixels[((y * 37 + x) * 4)..<((y * 37 + x) * 4 + 4)]) == Array(source.pixels[i..<(i + 4)]) else {
                        Issue.record("pixel \(x),\(y) under \(pattern)"); return
                    }
                }
            }
        }
    }
}
