import Testing
import SumiKit
import SumiCompose

/// `blend`'s streamed path (bands of the base, layers rasterised once) gives the bytes of the
/// whole-image path, for every mode, with layers inside, across and outside the base.
@Suite struct StreamedBlendTests {
    @Test(arguments: BlendMode.allCases.map(\.rawValue), [1.0, 0.4])
    func bandsEqualTheWholeImage(mode: String, opacity: Double) throws {
        // 53 rows: more than three 16-row bands, the last one short.
        let base = TestSupport.noise(37, 53, seed: 3, minAlpha: 0)
        let layerImage = TestSupport.noise(13, 40, seed: 9, minAlpha: 0)
        let harness = StageHarness(BlendStage.self)
        let origins = [(5.0, 7.0), (-4.0, 30.0), (30.0, -20.0), (12.0, 15.5), (100.0, 3.0)]
        for (x, y) in origins {
            var layer = Layer(image: layerImage)
            layer.placement = Placement(origin: Point(x: x, y: y), scaleX: 1, scaleY: 1)
            let parameters: [String: ParamValue] = ["mode": .string(mode), "opacity": .number(opacity)]
            let inputs: [String: Value] = ["base": .image(base), "layer": .layer(layer)]
            guard case .image(let whole) = try harness.run(parameters, inputs: inputs),
                  case .image(let streamed) = try harness.runRows(parameters, inputs: inputs) else {
                Issue.record("no image"); return
            }
            #expect(streamed.pixels == whole.pixels, "\(mode) \(opacity) at \(x),\(y)")
            #expect(streamed.metadata.knownOpaque == whole.metadata.knownOpaque)
        }
    }
}
