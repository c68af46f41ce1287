import Testing
import SumiKit
import SumiTransform

/// An input stream that has begun (its size is known) and never gives a row: a stage that asks
/// for a row, or room in its output, stalls on it. A stage that refuses by its size returns first.
final class RowlessSource: RowStreamDriver {
    private(set) var waits: [RowStreamWait] = []
    func unblock(_ stream: RowStream, waitingFor wait: RowStreamWait) throws { waits.append(wait) }
    func observe(_ stream: RowStream, _ event: RowStreamEvent) {}

    static func stream(width: Int, height: Int) throws -> (RowStream, RowlessSource) {
        let driver = RowlessSource()
        let stream = RowStream(capacity: 16, driver: driver)
        try stream.begin(ImageShape(width: width, height: height))
        return (stream, driver)
    }
}

/// Every transform that makes pixels refuses, by the size it would make and before reading a row,
/// an image over the run's `PixelLimits` (the stage's context), with a limit error naming pixels.
@Suite struct PixelLimitTests {
    static let limits = PixelLimits(maxPixels: 1_000_000, maxWidth: 4096)

    func refusal<S: Stage & RowStage>(_ type: S.Type, _ parameters: [String: ParamValue], width: Int, height: Int) throws -> (StageError?, [RowStreamWait]) {
        var harness = StageHarness(type)
        harness.options.limits = Self.limits
        let stage = try #require(try harness.make(parameters) as? any RowStage)
        let (input, source) = try RowlessSource.stream(width: width, height: height)
        let output = RowStream(capacity: 16, limits: Self.limits)
        var context = StageContext()
        context.options.limits = Self.limits
        do {
            _ = try stage.process(StageInputs([:], streams: ["in": input]), context: context, output: output)
        } catch let error as StageError {
            return (error, source.waits)
        }
        return (nil, source.waits)
    }

    @Test func scaleRefusesATallStripBeforeItsRows() throws {
        // 1x45000000 → 64 wide would be 64x2880000000.
        let (error, waits) = try refusal(ScaleStage.self, ["width": .integer(64)], width: 1, height: 45_000_000)
        let e = try #require(error)
        #expect(e.isLimit && e.message.contains("64x2880000000") && e.message.contains("pixels"), "\(e.message)")
        #expect(!waits.contains { if case .rows = $0 { true } else { false } }, "\(waits)")
    }

    @Test func scaleUpPastTheLimitIsRefused() throws {
        let (error, _) = try refusal(ScaleStage.self, ["width": .integer(2000)], width: 100, height: 100)
        let e = try #require(error)
        #expect(e.isLimit && e.message.contains("2000x2000"), "\(e.message)")
    }

    @Test func scaleWithinTheLimitIsNotRefusedBySize() throws {
        var harness = StageHarness(ScaleStage.self)
        harness.options.limits = Self.limits
        let out = try harness.runImage(["width": .integer(900)], inputs: ["in": .image(gradient(width: 100, height: 100))])
        #expect(out.width == 900 && out.height == 900)
    }

    @Test func padPastTheLimitIsRefused() throws {
        let (error, waits) = try refusal(PadStage.self, ["size": .size(Size(width: 2000, height: 2000))], width: 10, height: 10)
        let e = try #require(error)
        #expect(e.isLimit && e.message.contains("2000x2000") && e.message.contains("1 megapixels"), "\(e.message)")
        #expect(!waits.contains { if case .rows = $0 { true } else { false } }, "\(waits)")
    }

    @Test func aQuarterTurnCannotMakeARowWiderThanTheLimit() throws {
        var harness = StageHarness(RotateStage.self)
        harness.options.limits = Self.limits
        #expect {
            _ = try harness.run(["angle": .number(90)], inputs: ["in": .image(gradient(width: 2, height: 5000))])
        } throws: { error in
            (error as? StageError)?.isLimit == true && "\(error)".contains("5000x2")
        }
        // The same pixels upright pass.
        _ = try harness.run(["angle": .number(180)], inputs: ["in": .image(gradient(width: 2, height: 5000))])
    }

    @Test func theOutputStreamRefusesWhatAStageForgotToCheck() throws {
        let stream = RowStream(capacity: 16, limits: Self.limits)
        #expect {
            try stream.begin(ImageShape(width: 5000, height: 1))
        } throws: { error in
            (error as? StageError)?.isLimit == true && "\(error)".contains("rows of at most 4096 pixels")
        }
        #expect(stream.shape == nil)
        try RowStream(capacity: 16, limits: Self.limits).begin(ImageShape(width: 4096, height: 244))
    }
}
