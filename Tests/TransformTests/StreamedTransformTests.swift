import Testing
import SumiKit
import SumiTransform

/// The streamed paths of `scale`, `crop`, `flip` and `pad` give the bytes of their whole-image paths.
@Suite struct StreamedTransformTests {
    static func noise(_ width: Int, _ height: Int) -> Image {
        var state: UInt32 = 0x9E3779B9
        return Image(width: width, height: height) { buffer in
            for i in Swift.stride(from: 0, to: buffer.count, by: 4) {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                let a = UInt8(truncatingIfNeeded: state >> 24)
                buffer[i + 3] = a
                for c in 0..<3 { buffer[i + c] = UInt8(Int(UInt8(truncatingIfNeeded: state >> (8 * c))) * Int(a) / 255) }
            }
        }
    }

    func same(_ stage: StageHarness, _ parameters: [String: ParamValue], _ image: Image) throws {
        guard case .image(let whole) = try stage.run(parameters, inputs: ["in": .image(image)]),
              case .image(let streamed) = try stage.runRows(parameters, inputs: ["in": .image(image)]) else {
            Issue.record("no image"); return
        }
        #expect(streamed.width == whole.width && streamed.height == whole.height, "\(parameters)")
        #expect(streamed.pixels == whole.pixels, "\(parameters)")
    }

    @Test(arguments: ResampleFilter.allCases)
    func scaleBandsEqualTheWholeImage(filter: ResampleFilter) throws {
        let image = Self.noise(61, 97)
        for (w, h) in [(20, 9), (61, 40), (150, 97), (7, 300), (61, 97)] {
            try same(StageHarness(ScaleStage.self),
                     ["width": .integer(w), "height": .integer(h), "fit": .string("fill"), "filter": .string(filter.rawValue)], image)
        }
        try same(StageHarness(ScaleStage.self), ["width": .integer(30), "height": .integer(30), "fit": .string("cover")], image)
    }

    @Test func cropAndFlipBandsEqualTheWholeImage() throws {
        let image = Self.noise(45, 70)
        try same(StageHarness(CropStage.self), ["rect": .rect(Rect(x: 3, y: 17, width: 20, height: 40))], image)
        try same(StageHarness(CropStage.self), ["size": .size(Size(width: 10, height: 10)), "gravity": .string("bottom-right")], image)
        for direction in ["horizontal", "vertical", "both"] {
            try same(StageHarness(FlipStage.self), ["direction": .string(direction)], image)
        }
    }

    @Test func padBandsEqualTheWholeImage() throws {
        let image = Self.noise(45, 70)
        let pad = StageHarness(PadStage.self)
        try same(pad, ["margin": .list([.integer(3)]), "color": .string("#ff000080")], image)
        try same(pad, ["margin": .list([.integer(40), .integer(0), .integer(17), .integer(5)])], image)
        try same(pad, ["size": .size(Size(width: 100, height: 71)), "gravity": .string("bottom-right"), "color": .string("white")], image)
        try same(pad, ["size": .size(Size(width: 45, height: 300)), "gravity": .string("top")], image)
        try same(pad, ["size": .size(Size(width: 10, height: 10))], image)
        // Side data: the padded image's opaque flag and capture geometry follow the same rules both ways.
        guard case .image(let whole) = try pad.run(["margin": .list([.integer(2)]), "color": .string("white")], inputs: ["in": .image(image)]),
              case .image(let streamed) = try pad.runRows(["margin": .list([.integer(2)]), "color": .string("white")], inputs: ["in": .image(image)]) else {
            Issue.record("no image"); return
        }
        #expect(streamed.metadata.knownOpaque == whole.metadata.knownOpaque)
    }
}
