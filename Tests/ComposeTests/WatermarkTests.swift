import Testing
import SumiKit
import SumiCompose

/// `place` with an image as its layer (a watermark): where it lands, its `opacity`, and `tile=true`
/// repeating it over the whole base, checked pixel by pixel against positions worked out here.
@Suite struct WatermarkTests {
    let base = TestSupport.noise(40, 30, seed: 7)
    /// An opaque 8x6 mark whose every pixel differs.
    let mark = Image(width: 8, height: 6) { pixels in
        for y in 0..<6 {
            for x in 0..<8 {
                let i = (y * 8 + x) * 4
                pixels[i] = UInt8(20 + x * 25); pixels[i + 1] = UInt8(30 + y * 30); pixels[i + 2] = UInt8((x * 7 + y * 13) % 256); pixels[i + 3] = 255
            }
        }
    }

    func marked(_ parameters: [String: ParamValue], blend: [String: ParamValue] = [:], mark: Image? = nil) throws -> Image {
        let placed = try StageHarness(PlaceStage.self).run(parameters, inputs: ["base": .image(base), "layer": .image(mark ?? self.mark)])
        return try StageHarness(BlendStage.self).runImage(blend, inputs: ["base": .image(base), "layer": placed])
    }

    func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[((y * image.width + x) * 4)..<((y * image.width + x) * 4 + 4)])
    }

    @Test func anImageLayerGoesWhereGravityAndOffsetPutIt() throws {
        let out = try marked(["anchor": .string("bottom-right"), "offset": .point(Point(x: -3, y: -2))])
        // Bottom-right corner of the mark at (40 - 3, 30 - 2): its top-left at (29, 22).
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = x >= 29 && x < 37 && y >= 22 && y < 28
                #expect(pixel(out, x, y) == (inside ? pixel(mark, x - 29, y - 22) : pixel(base, x, y)), "(\(x), \(y))")
            }
        }
    }

    @Test func opacityFadesTheLayerAsBlendsOpacityDoes() throws {
        let faded = try marked(["anchor": .string("top-left"), "opacity": .number(0.3)])
        let blended = try marked(["anchor": .string("top-left")], blend: ["opacity": .number(0.3)])
        #expect(faded.pixels == blended.pixels)
        // Source-over of an opaque colour at 30 %: 0.3 of the mark plus 0.7 of the base, within a level.
        for (x, y) in [(0, 0), (7, 5), (3, 2)] {
            let m = pixel(mark, x, y), b = pixel(base, x, y), o = pixel(faded, x, y)
            for c in 0..<3 {
                let expected = 0.3 * Double(m[c]) + 0.7 * Double(b[c])
                #expect(abs(Double(o[c]) - expected) <= 1.01, "(\(x), \(y)) channel \(c): \(o[c]) vs \(expected)")
            }
        }
        #expect(pixel(faded, 20, 20) == pixel(base, 20, 20))
    }

    @Test func tilesRepeatFromWhereOneCopyWasPlaced() throws {
        // Centred, the copy's top-left is at (16, 12); the others repeat every 8 and 6 pixels.
        let out = try marked(["anchor": .string("center"), "tile": .bool(true)])
        for y in 0..<30 {
            for x in 0..<40 {
                let mx = ((x - 16) % 8 + 8) % 8, my = ((y - 12) % 6 + 6) % 6
                #expect(pixel(out, x, y) == pixel(mark, mx, my), "(\(x), \(y))")
            }
        }
        // Moved by an offset, the grid moves with it.
        let moved = try marked(["anchor": .string("top-left"), "offset": .point(Point(x: 3, y: -1)), "tile": .bool(true)])
        #expect(pixel(moved, 3, 0) == pixel(mark, 0, 1) && pixel(moved, 2, 5) == pixel(mark, 7, 0))
    }

    @Test func aTiledTranslucentMarkIsFadedEverywhere() throws {
        let out = try marked(["tile": .bool(true), "opacity": .number(0.5)])
        let whole = try marked(["tile": .bool(true)], blend: ["opacity": .number(0.5)])
        #expect(out.pixels == whole.pixels)
        #expect(out.pixels != base.pixels)
    }

    @Test func aTiledLayerIsRefusedOverTheRunsPixelLimitBeforeItIsDrawn() throws {
        var place = StageHarness(PlaceStage.self)
        place.options.limits = PixelLimits(maxPixels: 1000)
        #expect {
            _ = try place.run(["tile": .bool(true)], inputs: ["base": .image(base), "layer": .image(mark)])
        } throws: { error in
            (error as? StageError)?.isLimit == true && "\(error)".contains("40x30")
        }
    }

    @Test func badParametersNameTheParameter() throws {
        let place = StageHarness(PlaceStage.self)
        for (parameters, name) in [(["opacity": ParamValue.number(1.5)], "opacity"), (["tile": .string("sometimes")], "tile"),
                                   (["tile": .bool(true), "rotation": .number(30)], "rotation")] {
            #expect {
                _ = try place.make(parameters)
            } throws: { error in
                (error as? StageError)?.parameter == name && (error as? StageError)?.isUsageError == true
            }
        }
    }
}
