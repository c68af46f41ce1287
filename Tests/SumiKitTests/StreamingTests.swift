import Testing
import Dispatch
import SumiEngine
import SumiKit

/// A producer that proves its consumer runs concurrently: it publishes half its rows, then waits for
/// the consumer to confirm it read them before publishing the rest.
struct HalfwayProducer: Stage, RowStreamProducer {
    static let descriptor = StageDescriptor(name: "halfway", summary: "Streams rows", output: .image,
        parameters: [ParameterSpec("fail", .bool, default: .bool(false), summary: "fail half way")])
    static let consumerReadHalf = DispatchSemaphore(value: 0)
    let failHalfway: Bool
    init(parameters: Parameters) throws { failHalfway = parameters.bool("fail") ?? false }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        .image(Image(width: 4, height: 8, fill: .white))
    }
    func process(_ inputs: StageInputs, context: StageContext, streamingInto stream: RowStream) throws {
        let buffer = stream.begin(width: 4, height: 8, metadata: ImageMetadata())
        for i in 0..<buffer.count { buffer[i] = UInt8(i / 16) }
        stream.publish(rows: 4)
        if failHalfway { throw StageError("broke half way") }
        guard Self.consumerReadHalf.wait(timeout: .now() + 10) == .success else {
            throw StageError("the consumer never read the first rows while this stage was running")
        }
        stream.publish(rows: 8)
    }
}

/// Reads rows as they come; sums them.
struct RowSummer: Stage, RowStreamConsumer {
    static let descriptor = StageDescriptor(name: "summer", summary: "Sums rows",
        inputs: [PortSpec(name: "in", accepts: .image)], output: .file)
    init(parameters: Parameters) throws {}
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image("in")
        return .file(FileOutput(path: "-", format: "sum", bytes: image.pixels.reduce(0) { $0 + Int($1) }, width: 4, height: 8))
    }
    func process(streaming stream: RowStream, context: StageContext) throws -> Value {
        _ = try stream.waitForStart()
        _ = try stream.waitForRows(4)
        HalfwayProducer.consumerReadHalf.signal()
        _ = try stream.waitForRows(8)
        let pixels = try #require(stream.streamedPixels)
        return .file(FileOutput(path: "-", format: "sum", bytes: pixels.reduce(0) { $0 + Int($1) }, width: 4, height: 8))
    }
}

@Suite(.serialized) struct StreamingTests {
    func pipeline(_ text: String) throws -> Pipeline {
        let registry = try testRegistry()
        try registry.register([StageDefinition(HalfwayProducer.self), StageDefinition(RowSummer.self)])
        let manifest = try ManifestLoader.parse(Array(text.utf8), path: "/tmp/stream.json")
        return try PipelineBuilder(registry: registry).build(manifest, values: [:])
    }

    @Test func producerAndOnlyConsumerRunTogether() throws {
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "halfway"}, {"id": "c", "stage": "summer"}]}"#)
        let result = try Runner(pipeline: p).run()
        // Rows hold 0, 0, ... 1, 1, ...: every byte i is i / 16, 128 bytes in all.
        #expect(result.outputs.first?.file.bytes == (0..<128).reduce(0) { $0 + $1 / 16 })
        #expect(result.timings.map(\.id) == ["p", "c"])
    }

    @Test func aProducerFailureIsReportedOnTheProducer() throws {
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "halfway", "with": {"fail": true}}, {"id": "c", "stage": "summer"}]}"#)
        do {
            _ = try Runner(pipeline: p).run()
            Issue.record("no error")
        } catch {
            #expect(error.description == #"stream.json: stages[0] "p" (halfway): broke half way"#)
        }
    }

    @Test func aSecondConsumerMeansNoStreaming() throws {
        // With two consumers the value is passed whole: the non-streaming paths run.
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "halfway"}, {"id": "c", "stage": "summer", "from": "p"}, {"id": "d", "stage": "summer", "from": "p"}]}"#)
        let result = try Runner(pipeline: p).run()
        #expect(result.outputs.map(\.file.bytes) == [255 * 4 * 32, 255 * 4 * 32])
    }
}
