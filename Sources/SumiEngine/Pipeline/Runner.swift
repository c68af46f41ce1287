import Dispatch
import Synchronization
import SumiKit

/// Runs a validated pipeline: each stage once, producers before consumers, independent branches
/// concurrently; a value is released as soon as its last consumer has taken it.
public struct Runner: Sendable {
    /// What one run produced.
    public struct Result: Sendable {
        /// The files written, with the id of the stage that wrote them.
        public var outputs: [(stage: String, file: FileOutput)]
        /// Each stage's wall time, in manifest order.
        public var timings: [(id: String, stage: String, milliseconds: Double)]
    }

    public let pipeline: Pipeline
    /// Receives warnings, already prefixed with the stage's place.
    public let warn: @Sendable (String) -> Void

    public init(pipeline: Pipeline, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.pipeline = pipeline
        self.warn = warn
    }

    /// Runs the pipeline. The calling thread runs stages itself; when several stages are ready at
    /// once, the others go to Dispatch's pool, whose tasks never block — so a batch of pipelines, each
    /// on its own thread, cannot starve the pool.
    public func run() throws(SumiError) -> Result {
        let schedule = Schedule(pipeline: pipeline)
        let finished = DispatchSemaphore(value: 0)
        let pipeline = self.pipeline
        let warn = self.warn
        let file = FileIO.fileName(of: pipeline.manifest.path)

        @Sendable func context(for index: Int) -> StageContext {
            let place = pipeline.nodes[index].entry.place
            var context = StageContext(warn: { warn("\(file): \(place): \($0)") })
            context.sizeHint = schedule.sizeHint(for: index)
            return context
        }

        @Sendable func execute(_ index: Int) {
            let node = pipeline.nodes[index]
            guard let inputs = schedule.takeInputs(for: index).map(StageInputs.init) else {
                schedule.abandon(index)
                return
            }
            if let pair = schedule.streamingPair(of: index) {
                Runner.stream(pair, inputs: inputs, schedule: schedule,
                              contexts: (context(for: pair.producer), context(for: pair.consumer)), file: file)
                return
            }
            let stopwatch = Stopwatch()
            do {
                let value = try node.stage.process(consume inputs, context: context(for: index))
                schedule.finish(index, value: value, milliseconds: stopwatch.milliseconds)
            } catch {
                schedule.fail(index, Runner.placed(error, file: file, entry: node.entry))
            }
        }

        while true {
            switch schedule.nextWork() {
            case .done:
                return try schedule.result()
            case .wait:
                finished.wait()
            case .run(let first, let others):
                for index in others {
                    DispatchQueue.global().async {
                        execute(index)
                        finished.signal()
                    }
                }
                execute(first)
            }
        }
    }

    /// Runs a producer and its only consumer at the same time, each on its own thread, the image
    /// passing between them row by row.
    static func stream(_ pair: StreamingPair, inputs: StageInputs, schedule: Schedule,
                       contexts: (StageContext, StageContext), file: String) {
        let nodes = schedule.pipeline.nodes
        let (producer, consumer, source, sink) = (pair.producer, pair.consumer, pair.source, pair.sink)
        let stream = RowStream()
        let outcome = StreamOutcome()
        PosixThreads.run([
            {
                let stopwatch = Stopwatch()
                do {
                    try source.process(inputs, context: contexts.0, streamingInto: stream)
                    if !stream.isComplete { throw StageError("the stage ended without producing its image") }
                    stream.finish()
                    outcome.set { $0.producerMilliseconds = stopwatch.milliseconds }
                } catch {
                    stream.fail(error)
                    outcome.set { $0.producerError = error }
                }
            },
            {
                let stopwatch = Stopwatch()
                do {
                    let value = try sink.process(streaming: stream, context: contexts.1)
                    outcome.set { $0.value = value; $0.consumerMilliseconds = stopwatch.milliseconds }
                } catch {
                    stream.fail(error)
                    outcome.set { $0.consumerError = error }
                }
            },
        ])
        let result = outcome.get()
        if let error = result.producerError {
            schedule.fail(producer, placed(error, file: file, entry: nodes[producer].entry))
        } else if let error = result.consumerError {
            schedule.finishStreamed(producer: producer, consumer: consumer,
                                    .failure(placed(error, file: file, entry: nodes[consumer].entry)),
                                    milliseconds: (result.producerMilliseconds, result.consumerMilliseconds))
        } else if let value = result.value {
            schedule.finishStreamed(producer: producer, consumer: consumer, .success(value),
                                    milliseconds: (result.producerMilliseconds, result.consumerMilliseconds))
        }
    }

    /// Gives an error from a stage its place in the manifest.
    static func placed(_ error: any Error, file: String, entry: ManifestStage) -> SumiError {
        switch error {
        case let e as StageError:
            return SumiError(e.isUsageError ? .usage : .run, file: file, stage: entry.place, parameter: e.parameter, e.message)
        case var e as SumiError:
            if e.stage == nil { e.stage = entry.place; e.file = e.file ?? file }
            return e
        default:
            return SumiError(.run, file: file, stage: entry.place, "\(error)")
        }
    }
}
