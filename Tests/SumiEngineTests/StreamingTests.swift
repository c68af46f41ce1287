import Testing
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import SumiEngine
import SumiKit

/// A producer that proves its consumer runs concurrently: it publishes half its rows, then waits for
/// the consumer to confirm it read them before publishing the rest.
struct HalfwayProducer: Stage, RowStage {
    static let descriptor = StageDescriptor(name: "halfway", summary: "Streams rows", output: .image,
        parameters: [ParameterSpec("fail", .bool, default: .bool(false), summary: "fail half way")])
    static let consumerReadHalf = DispatchSemaphore(value: 0)
    let failHalfway: Bool
    init(parameters: Parameters) throws { failHalfway = parameters.bool("fail") ?? false }
    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let stream = try #require(output)
        try stream.begin(ImageShape(width: 4, height: 8))
        func write(_ rows: Range<Int>) throws {
            try stream.reserve(through: rows.upperBound)
            for y in rows { for i in 0..<16 { stream.row(y)[i] = UInt8((y * 16 + i) / 16) } }
            stream.publish(through: rows.upperBound)
        }
        try write(0..<4)
        if failHalfway { throw StageError("broke half way") }
        guard Self.consumerReadHalf.wait(timeout: .now() + 10) == .success else {
            throw StageError("the consumer never read the first rows while this stage was running")
        }
        try write(4..<8)
        return nil
    }
}

/// Reads rows as they come; sums them.
struct RowSummer: Stage, RowStage {
    static let descriptor = StageDescriptor(name: "summer", summary: "Sums rows",
        inputs: [PortSpec(name: "in", accepts: .image)], output: .file)
    init(parameters: Parameters) throws {}
    func imageAccess(for port: String) -> ImageAccess { .rows }
    var producesRows: Bool { false }
    func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let stream = try inputs.rows(Port("in"))
        let shape = try stream.waitForStart()
        var sum = 0
        func read(_ rows: Range<Int>) throws {
            _ = try stream.waitForRows(through: rows.upperBound)
            for y in rows { for i in 0..<shape.stride { sum += Int(stream.row(y)[i]) } }
            stream.release(through: rows.upperBound)
        }
        try read(0..<4)
        HalfwayProducer.consumerReadHalf.signal()
        try read(4..<shape.height)
        try stream.waitForEnd()
        return .file(FileOutput(path: "-", format: "sum", bytes: sum, width: 4, height: 8))
    }
}

/// Reads only the size of its input.
struct ShapeReader: Stage {
    static let descriptor = StageDescriptor(name: "sizer", summary: "Reads a size",
        inputs: [PortSpec(name: "in", accepts: .image)], output: .file)
    init(parameters: Parameters) throws {}
    func imageAccess(for port: String) -> ImageAccess { .shape }
    func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let shape = try inputs.shape(Port("in"))
        return .file(FileOutput(path: "-", format: "size", bytes: shape.width * 100 + shape.height,
                                width: Double(shape.width), height: Double(shape.height)))
    }
}

@Suite(.serialized) struct StreamingTests {
    func pipeline(_ text: String) throws -> Pipeline {
        try build(text, adding: [HalfwayProducer.self, RowSummer.self, ShapeReader.self], file: "stream.json")
    }

    @Test func producerAndOnlyConsumerRunTogether() throws {
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "halfway"}, {"id": "c", "stage": "summer"}]}"#)
        let result = try Runner(pipeline: p).run()
        // Rows hold 0, 0, ... 1, 1, ...: every byte i is i / 16, 128 bytes in all.
        #expect(result.outputs.first?.file.bytes == (0..<128).reduce(0) { $0 + $1 / 16 })
        #expect(result.timings.map(\.id) == ["p", "c"])
    }

    @Test func aShapeConsumerDoesNotStopStreaming() throws {
        // The producer waits for the row consumer half way: this run ends only if the rows stream
        // while the size-only consumer has already been given the size.
        let p = try pipeline(#"{"sumi": 1, "stages": [{"id": "p", "stage": "halfway"}, {"id": "s", "stage": "sizer", "from": "p"}, {"id": "c", "stage": "summer", "from": "p"}]}"#)
        let result = try Runner(pipeline: p).run()
        #expect(result.outputs.map(\.file.bytes) == [408, (0..<128).reduce(0) { $0 + $1 / 16 }])
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

    @Test func theRingNeverHoldsMoreThanItsCapacity() throws {
        // 1000 rows through a ring of 10, written in bands of 7 and read in bands of 3: every row
        // arrives intact, and the ring's occupancy never passed its capacity.
        let stream = RowStream(capacity: 10)
        let (width, height) = (5, 1000)
        let seen = Mutex<[UInt8]>([])
        try PosixThreads.run([
            {
                do {
                    try stream.begin(ImageShape(width: width, height: height))
                    var y = 0
                    while y < height {
                        let end = min(height, y + 7)
                        try stream.reserve(through: end)
                        for row in y..<end { for i in 0..<(width * 4) { stream.row(row)[i] = UInt8(truncatingIfNeeded: row &+ i) } }
                        stream.publish(through: end)
                        y = end
                    }
                    stream.finish()
                } catch { stream.fail(error) }
            },
            {
                do {
                    var y = 0, bytes: [UInt8] = []
                    while y < height {
                        let end = min(height, y + 3)
                        _ = try stream.waitForRows(through: end)
                        for row in y..<end { bytes += UnsafeBufferPointer(start: stream.row(row), count: width * 4) }
                        stream.release(through: end)
                        y = end
                    }
                    seen.withLock { $0 = bytes }
                } catch { stream.fail(error) }
            },
        ], stop: { stream.fail(StageError("no thread for the other side")) })
        let expected = (0..<height).flatMap { row in (0..<(width * 4)).map { UInt8(truncatingIfNeeded: row + $0) } }
        #expect(seen.withLock { $0 } == expected)
        #expect(stream.mostRowsHeld <= stream.slots)
        #expect(stream.slots == 20)
        #expect(stream.mostRowsHeld >= 7)
    }

    @Test func bandsThatDoNotLineUpNeverWaitForEachOther() throws {
        // A producer whose bands follow its own boundaries (40 rows, then as many as it may: stitch's
        // segments) and a consumer reading bands of 16: with a ring of exactly `capacity` rows, the
        // producer waited for row 40 to be released while the consumer waited for row 48. A watchdog
        // fails the stream after 20 s, so a regression fails instead of hanging.
        let stream = RowStream(capacity: 48)
        let (width, height) = (2, 3000)
        let done = Mutex(false)
        let rowsRead = Mutex(0)
        try PosixThreads.run([
            {
                do {
                    try stream.begin(ImageShape(width: width, height: height))
                    var y = 0, step = 0
                    let sizes = [40, 48, 7, 48, 33, 1, 48]
                    while y < height {
                        let end = min(height, y + sizes[step % sizes.count])
                        try stream.reserve(through: end)
                        for row in y..<end { stream.row(row)[0] = UInt8(truncatingIfNeeded: row) }
                        stream.publish(through: end)
                        y = end
                        step += 1
                    }
                    stream.finish()
                } catch { stream.fail(error) }
            },
            {
                do {
                    var y = 0
                    while y < height {
                        let end = min(height, y + 16)
                        _ = try stream.waitForRows(through: end)
                        for row in y..<end where stream.row(row)[0] == UInt8(truncatingIfNeeded: row) {
                            rowsRead.withLock { $0 += 1 }
                        }
                        stream.release(through: end)
                        y = end
                    }
                } catch { stream.fail(error) }
                done.withLock { $0 = true }
            },
            {
                for _ in 0..<2000 where !done.withLock({ $0 }) { usleep(10_000) }
                if !done.withLock({ $0 }) { stream.fail(StageError("the two sides waited for each other")) }
            },
        ], stop: { stream.fail(StageError("no thread for the other side")) })
        #expect(!stream.hasFailed)
        #expect(rowsRead.withLock { $0 } == height)
    }

    @Test func askingForMoreRowsThanTheRingHoldsIsAnError() throws {
        let stream = RowStream(capacity: 4)
        try stream.begin(ImageShape(width: 1, height: 100))
        #expect(throws: StageError.self) { _ = try stream.waitForRows(through: 5) }
    }

    @Test func aFailureWakesAWaitingProducer() throws {
        let stream = RowStream(capacity: 2)
        try stream.begin(ImageShape(width: 1, height: 100))
        // The ring holds twice the capacity: four rows written and none released fill it.
        #expect(stream.slots == 4)
        try stream.reserve(through: 2)
        stream.publish(through: 2)
        try stream.reserve(through: 4)
        stream.publish(through: 4)
        try PosixThreads.run([
            { usleep(20_000); stream.fail(StageError("consumer broke")) },
            { #expect(throws: RowStream.ProducerFailed.self) { try stream.reserve(through: 5) } },
        ], stop: { stream.fail(StageError("no thread for the other side")) })
    }
}
