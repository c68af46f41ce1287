import Testing
import SumiKit
import SumiTransform

/// A horizontal gradient: red = x * 255 / (width - 1), opaque.
func gradient(width: Int, height: Int) -> Image {
    Image(width: width, height: height) { buffer in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                buffer[i] = UInt8((x * 255) / max(1, width - 1))
                buffer[i + 1] = UInt8((y * 255) / max(1, height - 1))
                buffer[i + 2] = 128
                buffer[i + 3] = 255
            }
        }
    }
}

@Suite struct ScaleStageTests {
    let harness = StageHarness(ScaleStage.self)

    @Test(arguments: ResampleFilter.allCases)
    func gradientStaysAGradient(filter: ResampleFilter) throws {
        let source = gradient(width: 400, height: 300)
        let out = try harness.runImage(["width": .integer(100), "filter": .string(filter.rawValue)], inputs: ["in": .image(source)])
        #expect(out.width == 100 && out.height == 75)
        // Each output pixel covers 4 source columns: its red is the source's value at the centre.
        for x in stride(from: 2, to: 98, by: 7) {
            let expected = (Double(x) + 0.5) * 4 - 0.5
            let red = Double(out.pixel(x: x, y: 37).r)
            #expect(abs(red - expected * 255 / 399) <= 2.5, "x=\(x) filter=\(filter) got \(red)")
            #expect(out.pixel(x: x, y: 37).b == 128)
        }
    }

    @Test func upscaleKeepsEdgesMonotonic() throws {
        let source = gradient(width: 16, height: 16)
        let out = try harness.runImage(["factor": .number(4)], inputs: ["in": .image(source)])
        #expect(out.width == 64 && out.height == 64)
        var previous = -1
        for x in 0..<64 {
            let r = Int(out.pixel(x: x, y: 30).r)
            #expect(r >= previous - 1)
            previous = r
        }
    }

    @Test func premultipliedAlphaDoesNotBleedColour() throws {
        // Left half opaque red, right half fully transparent (stored black, as premultiplied does).
        var source = Image(width: 8, height: 1, fill: .transparent)
        for x in 0..<4 { source.pixels[x * 4] = 255; source.pixels[x * 4 + 3] = 255 }
        let out = try harness.runImage(["width": .integer(3), "height": .integer(1), "fit": .string("fill")], inputs: ["in": .image(source)])
        // The middle pixel is half covered: un-premultiplied it is still pure red, not darkened.
        let middle = out.color(x: 1, y: 0)
        #expect(middle.alpha > 90 && middle.alpha < 165)
        #expect(middle.red >= 250 && middle.green == 0 && middle.blue == 0)
        for x in 0..<3 {
            let p = out.pixel(x: x, y: 0)
            #expect(p.r <= p.a && p.g <= p.a && p.b <= p.a)
        }
    }

    @Test(arguments: [
        ("contain", 200, 200, 200, 150),
        ("cover", 200, 200, 200, 200),
        ("fill", 200, 200, 200, 200),
    ])
    func fitModes(fit: String, w: Int, h: Int, ew: Int, eh: Int) throws {
        let source = gradient(width: 400, height: 300)
        let out = try harness.runImage(["width": .integer(w), "height": .integer(h), "fit": .string(fit)], inputs: ["in": .image(source)])
        #expect(out.width == ew && out.height == eh)
        if fit == "cover" {
            // Cropped centrally: the left edge shows source column ~50 of 400 (1/8 of the width).
            let red = Double(out.pixel(x: 0, y: 100).r)
            #expect(abs(red - 50 * 255 / 399) < 6)
        }
    }

    @Test func heightAloneKeepsAspect() throws {
        let out = try harness.runImage(["height": .integer(30)], inputs: ["in": .image(gradient(width: 400, height: 300))])
        #expect(out.width == 40 && out.height == 30)
    }

    @Test func reducedInputOnlyWhenShrinking() throws {
        let stage = try harness.make(["width": .integer(512)])
        #expect(stage.reducedInputSize(for: Size(width: 3000, height: 2002)) == Size(width: 512, height: 342))
        #expect(stage.reducedInputSize(for: Size(width: 300, height: 200)) == nil)
    }

    @Test func plansFromTheFullSizeOfAReducedImage() throws {
        var reduced = gradient(width: 750, height: 501)
        reduced.metadata.fullSize = Size(width: 3000, height: 2002)
        let out = try harness.runImage(["width": .integer(512)], inputs: ["in": .image(reduced)])
        #expect(out.width == 512 && out.height == 342)
    }

    @Test func parameterErrors() {
        let image = gradient(width: 4, height: 4)
        #expect(throws: StageError.self) { try harness.run([:], inputs: ["in": .image(image)]) }
        #expect(throws: StageError.self) { try harness.run(["width": .integer(10), "factor": .number(2)], inputs: ["in": .image(image)]) }
        #expect(throws: StageError.self) { try harness.run(["width": .integer(0)], inputs: ["in": .image(image)]) }
        #expect(throws: StageError.self) { try harness.run(["filter": .string("sinc"), "width": .integer(2)], inputs: ["in": .image(image)]) }
        #expect(throws: StageError.self) { try harness.run(["factor": .number(64)], inputs: ["in": .image(Image(width: 2000, height: 2000))]) }
    }
}

@Suite struct ScaleWeightTests {
    let harness = StageHarness(ScaleStage.self)

    /// A flat colour stays exactly that colour at any reduction or enlargement: the filter's
    /// fixed-point weights must add up to one however many source pixels each output pixel covers.
    @Test(arguments: [(9000, 9), (4001, 3), (1000, 7), (777, 776), (300, 1), (5, 1237)])
    func flatColourIsKeptExactly(sizes: (Int, Int)) throws {
        let (from, to) = sizes
        let source = Image(width: from, height: 2, fill: Color(red: 200, green: 13, blue: 255, alpha: 255))
        for filter in ResampleFilter.allCases {
            let out = try harness.runImage(["width": .integer(to), "height": .integer(2), "fit": .string("fill"),
                                            "filter": .string(filter.rawValue)],
                                           inputs: ["in": .image(source)])
            #expect(out.width == to)
            for x in Set([0, to / 2, to - 1]) {
                let p = out.pixel(x: x, y: 1)
                #expect(p.r == 200 && p.g == 13 && p.b == 255 && p.a == 255,
                        "\(from)→\(to) \(filter) x=\(x): \(p)")
            }
        }
    }
}
