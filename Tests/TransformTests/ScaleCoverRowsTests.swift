import Testing
import SumiKit
import SumiTransform

/// `scale` with `fit: cover` streams: the source is resized band by band and the crop passes on row
/// by row, through small rings with odd bands — the bytes and side data (capture rectangles mapped
/// through the resize and the crop) of `ScaleGeometry.apply`: resize the whole image, then crop.
@Suite struct ScaleCoverRowsTests {
    @Test(arguments: RingPattern.standard)
    func coverRowsEqualTheWholeImageResizeThenCrop(pattern: RingPattern) throws {
        let stage = StageHarness(ScaleStage.self)
        var image = TestImage.noise(61, 97, seed: 11)
        image.metadata.captureRects = [Rect(x: 0, y: 10, width: 61, height: 40), Rect(x: 0, y: 50, width: 61, height: 47)]
        for filter in ResampleFilter.allCases {
            for (w, h) in [(30, 30), (50, 12), (9, 80), (122, 60)] {
                let parameters: [String: ParamValue] = ["width": .integer(w), "height": .integer(h), "fit": .string("cover"),
                                                        "filter": .string(filter.rawValue)]
                let geometry = try #require(try stage.make(parameters) as? ScaleStage).geometry
                let expected = try geometry.apply(to: image, filter: filter)
                let run = try stage.runRing(parameters, inputs: ["in": .image(image)], pattern: pattern)
                guard case .image(let out) = run.value else { Issue.record("no image"); return }
                #expect(out.width == w && out.height == h && expected.width == w && expected.height == h)
                #expect(out.pixels == expected.pixels, "\(parameters) \(pattern)")
                #expect(out.metadata.captureRects == expected.metadata.captureRects, "\(parameters)")
                let input = try #require(run.inputs["in"]), output = try #require(run.output)
                #expect(input.mostRowsHeld <= input.slots && output.mostRowsHeld <= output.slots)
            }
        }
    }
}
