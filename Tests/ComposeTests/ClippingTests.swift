import Testing
import SumiKit
import SumiCompose

/// Layers partly or wholly outside the base are clipped; pixels outside the layer stay byte-identical.
@Suite struct ClippingTests {
    static let offsets: [(Int, Int)] = [(-10, -5), (50, 40), (-7, 30), (60, -12), (20, 10), (-40, -30), (64, 0), (0, 48), (-300, 5)]

    @Test(arguments: 0..<offsets.count)
    func pixelsOutsideLayerAreUntouched(_ index: Int) throws {
        let (ox, oy) = Self.offsets[index]
        let base = TestSupport.noise(64, 48, seed: 11, minAlpha: 0)
        let layer = TestSupport.noise(30, 20, seed: 5, minAlpha: 0)
        let (placed, out) = try TestSupport.placeAndBlend(
            base: base, layer: .image(layer),
            place: ["anchor": .string("top-left"), "offset": .point(Point(x: Double(ox), y: Double(oy)))],
            blend: ["mode": .string("screen"), "opacity": .number(0.8)])
        #expect(placed.placement.origin == Point(x: Double(ox), y: Double(oy)))
        var inside = 0, changed = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let a = out.pixel(x: x, y: y), b = base.pixel(x: x, y: y)
                let same = a == b
                if x >= ox && x < ox + 30 && y >= oy && y < oy + 20 {
                    inside += 1
                    if !same { changed += 1 }
                    let l = layer.pixel(x: x - ox, y: y - oy)
                    let expected = BlendModeTests.reference("screen", source: [l.r, l.g, l.b, l.a],
                                                            backdrop: [b.r, b.g, b.b, b.a], opacity: 0.8)
                    let got = [a.r, a.g, a.b, a.a]
                    #expect((0..<4).allSatisfy { abs(Double(got[$0]) - expected[$0]) <= 1 }, "pixel \(x),\(y)")
                } else {
                    #expect(same, "pixel \(x),\(y) outside the layer changed")
                }
            }
        }
        let expectedInside = max(0, min(64, ox + 30) - max(0, ox)) * max(0, min(48, oy + 20) - max(0, oy))
        #expect(inside == expectedInside)
        // Screen with a noisy layer at 0.8 changes nearly every covered pixel.
        #expect(changed * 10 >= inside * 8)
    }

    /// A layer that misses the base entirely is not drawn: pass-through bytes survive.
    @Test func whollyOutsideKeepsSourceBytes() throws {
        let base = Image(width: 32, height: 32, fill: .white, metadata: ImageMetadata(sourceFormat: "jpeg", sourceBytes: [9, 9]))
        for offset in [Point(x: 32, y: 0), Point(x: -500, y: -500), Point(x: 0, y: 1e6)] {
            let (_, out) = try TestSupport.placeAndBlend(
                base: base, layer: .image(TestSupport.solid(10, 10, .black)),
                place: ["anchor": .string("top-left"), "offset": .point(offset)])
            #expect(out.pixels == base.pixels)
            #expect(out.metadata.sourceBytes == [9, 9])
        }
    }

    /// An absurdly large placement fails with a clear error instead of allocating gigabytes: the
    /// layer's size in pixels, how far over the limit and the image that is, and what to change.
    @Test func hugeLayerIsRefused() throws {
        let base = TestSupport.solid(1000, 1000, .white)
        let layer = try TestSupport.placed(StageHarness(PlaceStage.self).run(
            ["frame": .size(Size(width: 1, height: 1))],
            inputs: ["base": .image(base), "layer": .layer(Layer(content: BoxLayer(size: Size(width: 100, height: 30), fill: .white, border: .black)))]))
        #expect {
            try StageHarness(BlendStage.self).run(inputs: ["base": .image(base), "layer": .layer(layer)])
        } throws: { error in
            // 100x30 layout units in a 1x1 frame on a 1000x1000 image: scaled by 1000.
            let message = "\(error)"
            return message.contains("100000x30000 pixels where it is placed (3000 megapixels): 17× the most blend draws of one layer (178956970 pixels)")
                && message.contains("100× the width of the 1000x1000 image") && message.contains("make the layer smaller")
        }
    }
}
