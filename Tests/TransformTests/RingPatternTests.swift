import Testing
import SumiKit
import SumiTransform

/// `scale`, `crop`, `flip` and `pad` through small rings driven with odd bands
/// (`RingPattern.standard`): the bytes of the whole-image run, and of a reference computed here
/// pixel by pixel (crop, flip, pad) or a flat colour kept exactly (scale).
@Suite struct RingPatternTests {
    let image = TestImage.noise(45, 70)

    /// The stage's output through `pattern`, checked against its whole-image run.
    func ringed(_ stage: StageHarness, _ parameters: [String: ParamValue], _ pattern: RingPattern, _ input: Image? = nil) throws -> Image {
        let inputs: [String: Value] = ["in": .image(input ?? image)]
        let whole = try stage.runImage(parameters, inputs: inputs)
        let run = try stage.runRing(parameters, inputs: inputs, pattern: pattern)
        guard case .image(let ringed) = run.value else { throw StageError("no image") }
        #expect(ringed.width == whole.width && ringed.height == whole.height, "\(parameters) \(pattern)")
        #expect(ringed.pixels == whole.pixels, "\(parameters) \(pattern)")
        #expect(ringed.metadata.knownOpaque == whole.metadata.knownOpaque)
        #expect(ringed.metadata.captureRects == whole.metadata.captureRects)
        for ring in Array(run.inputs.values) + [run.output].compactMap({ $0 }) {
            #expect(ring.mostRowsHeld <= ring.slots, "\(pattern)")
        }
        return ringed
    }

    /// Pixels `(x, y)` of `image` as RGBA, transparent outside.
    func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return [0, 0, 0, 0] }
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<(i + 4)])
    }

    func expected(width: Int, height: Int, _ source: (Int, Int) -> [UInt8]) -> [UInt8] {
        (0..<height).flatMap { y in (0..<width).flatMap { x in source(x, y) } }
    }

    @Test(arguments: RingPattern.standard)
    func scale(pattern: RingPattern) throws {
        do {
            let scale = StageHarness(ScaleStage.self)
            for filter in ResampleFilter.allCases {
                for (w, h) in [(20, 9), (45, 31), (150, 70), (7, 300)] {
                    _ = try ringed(scale, ["width": .integer(w), "height": .integer(h), "fit": .string("fill"),
                                           "filter": .string(filter.rawValue)], pattern)
                }
            }
            _ = try ringed(scale, ["width": .integer(30), "height": .integer(30), "fit": .string("cover")], pattern)
            // A flat colour stays exactly that colour, every row, whatever the bands.
            let flat = Image(width: 45, height: 70, fill: Color(red: 51, green: 153, blue: 102))
            let out = try ringed(scale, ["width": .integer(17), "height": .integer(131), "fit": .string("fill")], pattern, flat)
            #expect(out.pixels == [UInt8](Array(flat.pixels[0..<4])).repeated(17 * 131))
        }
    }

    @Test(arguments: RingPattern.standard)
    func crop(pattern: RingPattern) throws {
        do {
            let crop = StageHarness(CropStage.self)
            let out = try ringed(crop, ["rect": .rect(Rect(x: 3, y: 17, width: 20, height: 40))], pattern)
            #expect(out.pixels == expected(width: 20, height: 40) { pixel(image, $0 + 3, $1 + 17) })
            let corner = try ringed(crop, ["size": .size(Size(width: 10, height: 10)), "gravity": .string("bottom-right")], pattern)
            #expect(corner.pixels == expected(width: 10, height: 10) { pixel(image, $0 + 35, $1 + 60) })
        }
    }

    @Test(arguments: RingPattern.standard)
    func flip(pattern: RingPattern) throws {
        do {
            let flip = StageHarness(FlipStage.self)
            for direction in ["horizontal", "vertical", "both"] {
                let out = try ringed(flip, ["direction": .string(direction)], pattern)
                #expect(out.pixels == expected(width: 45, height: 70) { x, y in
                    pixel(image, direction == "vertical" ? x : 44 - x, direction == "horizontal" ? y : 69 - y)
                }, "\(direction)")
            }
        }
    }

    @Test(arguments: RingPattern.standard)
    func pad(pattern: RingPattern) throws {
        do {
            let pad = StageHarness(PadStage.self)
            let red: [UInt8] = [128, 0, 0, 128]
            let out = try ringed(pad, ["margin": .list([.integer(3)]), "color": .string("#ff000080")], pattern)
            #expect(out.pixels == expected(width: 51, height: 76) { x, y in
                (3..<48).contains(x) && (3..<73).contains(y) ? pixel(image, x - 3, y - 3) : red
            })
            let uneven = try ringed(pad, ["margin": .list([.integer(40), .integer(0), .integer(17), .integer(5)])], pattern)
            #expect(uneven.pixels == expected(width: 50, height: 127) { pixel(image, $0 - 5, $1 - 40) })
            _ = try ringed(pad, ["size": .size(Size(width: 100, height: 71)), "gravity": .string("bottom-right"), "color": .string("white")], pattern)
            _ = try ringed(pad, ["size": .size(Size(width: 45, height: 300)), "gravity": .string("top")], pattern)
            _ = try ringed(pad, ["size": .size(Size(width: 10, height: 10))], pattern)
        }
    }
}

extension Array {
    /// The array `count` times over.
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
