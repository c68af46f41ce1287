import Testing
import Dispatch
import Synchronization
@testable import SumiEngine
import SumiKit

/// Streams 200 rows of 4 pixels in bands of 8: more than its ring holds, so it blocks until a
/// consumer reads.
struct TallProducer: Stage, RowStage {
    static let descriptor = StageDescriptor(name: "tall", summary: "Streams 200 rows", output: .image,
        parameters: [ParameterSpec("begin", .bool, default: .bool(true), summary: "false: return without beginning")])
    let begins: Bool
    init(parameters: Parameters) throws { begins = parameters.bool("begin") ?? true }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        .image(Image(width: 4, height: 200, fill: .white))
    }
    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        guard begins else { return nil }
        let stream = try #require(output)
        try stream.begin(ImageShape(width: 4, height: 200))
        for end in stride(from: 8, through: 200, by: 8) {
            try stream.reserve(through: end)
            for y in (end - 8)..<end { stream.row(y).update(repeating: 255, count: 16) }
            stream.publish(through: end)
        }
        return nil
    }
}

/// Reads its input as rows and returns nothing (a broken stage).
struct NothingStage: Stage, RowStage {
    static let descriptor = StageDescriptor(name: "nothing", summary: "Returns no value",
        inputs: [PortSpec(name: "in", accepts: .image)], output: .image)
    init(parameters: Parameters) throws {}
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value { try inputs[Port<Image>("in")] ?? { throw StageError("no input") }() }
    func imageAccess(for port: String) -> ImageAccess { .rows }
    var producesRows: Bool { false }
    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? { nil }
}

/// Reads its input as rows in bands of 8 and counts them.
struct RowCounter: Stage, RowStage {
    static let descriptor = StageDescriptor(name: "counter", summary: "Counts rows",
        inputs: [PortSpec(name: "in", accepts: .image)], output: .file)
    init(parameters: Parameters) throws {}
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image(Port("in"))
        return .file(FileOutput(path: "-", format: "rows", bytes: image.height, width: 0, height: 0))
    }
    func imageAccess(for port: String) -> ImageAccess { .rows }
    var producesRows: Bool { false }
    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let stream = try inputs.rows(Port("in"))
        let shape = try stream.waitForStart()
        for end in stride(from: 8, through: shape.height + 7, by: 8) {
            _ = try stream.waitForRows(through: end)
            stream.release(through: end)
        }
        try stream.waitForEnd()
        return .file(FileOutput(path: "-", format: "rows", bytes: shape.height, width: 0, height: 0))
    }
}

/// A run that cannot get a thread for a stage, or whose stage gives nothing, fails with a message
/// naming the stage instead of hanging.
@Suite struct RunFailureTests {
    func pipeline(_ text: String) throws -> Pipeline {
        try build(text, adding: [TallProducer.self, RowCounter.self, NothingStage.self], file: "fail.json")
    }

    /// Runs `runner` on its own thread; the error it threw, or a recorded issue when it did not end
    /// within 30 seconds (a hang).
    func failure(of runner: Runner) -> SumiError? {
        let ended = DispatchSemaphore(value: 0)
        let outcome = Mutex<SumiError?>(nil)
        DispatchQueue.global().async {
            do throws(SumiError) { _ = try runner.run() } catch { outcome.withLock { $0 = error } }
            ended.signal()
        }
        guard ended.wait(timeout: .now() + 30) == .success else {
            Issue.record("the run did not end within 30 seconds")
            return nil
        }
        return outcome.withLock { $0 }
    }

    @Test(arguments: [0, 1])
    func aStageWithoutAThreadFailsTheRun(threads: Int) throws {
        // The producer fills its ring and waits for a consumer that never starts: the run must stop
        // it and name the stage that got no thread.
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "tall"}, {"id": "c", "stage": "counter"}]}"#)
        var runner = Runner(pipeline: p)
        runner.threadLimit = threads
        let stage = threads == 0 ? #"stages[0] "p" (tall)"# : #"stages[1] "c" (counter)"#
        let error = try #require(failure(of: runner))
        #expect(error.description == "fail.json: \(stage): could not start a thread for the stage: Resource temporarily unavailable")
        #expect(error.exitCode == 1)
    }

    @Test func aStageThatReturnsNothingFailsTheRun() throws {
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "tall"}, {"id": "n", "stage": "nothing"}, {"id": "c", "stage": "counter"}]}"#)
        let error = try #require(failure(of: Runner(pipeline: p)))
        #expect(error.description == #"fail.json: stages[1] "n" (nothing): the stage ended without producing its value"#)
    }

    @Test func aStageThatNeverBeginsFailsTheRun() throws {
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "tall", "with": {"begin": false}}, {"id": "c", "stage": "counter"}]}"#)
        let error = try #require(failure(of: Runner(pipeline: p)))
        #expect(error.description == #"fail.json: stages[0] "p" (tall): the stage ended without producing its image"#)
    }
}

/// A value read by two stages is held whole: the producer's rows are collected into one image,
/// which each consumer reads as a complete stream.
@Suite struct WholeValueTests {
    @Test func aSecondPixelConsumerMeansAWholeImage() throws {
        // 200 rows, more than a ring holds: the run ends only because the image is held whole.
        let p = try RunFailureTests().pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "tall"}, {"id": "c", "stage": "counter", "from": "p"}, {"id": "d", "stage": "counter", "from": "p"}]}"#)
        let result = try Runner(pipeline: p).run()
        #expect(result.outputs.map(\.file.bytes) == [200, 200])
        #expect(result.timings.map(\.id) == ["p", "c", "d"])
    }
}
