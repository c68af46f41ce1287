#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// One run of a pipeline, the only scheduler: every stage runs on its own POSIX thread and blocks
/// until its inputs are there — a whole value, a shape, or the rows of a stream (`StreamPlan`) — so
/// independent branches run at once, and the decode, blend and encode of different bands overlap
/// on the cores. A `RowStage` always runs its row path: a whole input reaches it as a complete
/// stream, and an output that is not streamed is collected into an image for its consumers.
/// Whole values are dropped when their last consumer took them.
///
/// The first failure fails every stream and every wait, so the other stages stop at their next
/// band and free their rings; the run reports the failing stage's own error, not the "stopped"
/// errors it caused elsewhere. An output written by a streamed encoder is renamed into place only
/// after its input stream ended, which needs every producer upstream to have ended without error.
final class PipelineRun: @unchecked Sendable {
    let pipeline: Pipeline
    let plan: StreamPlan
    let file: String
    let contexts: [StageContext]
    /// The stream each streamed node writes, by node index.
    let streams: [Int: RowStream]

    private let lock = ConditionLock()
    private var values: [Int: Value] = [:]
    private var remainingUses: [Int]
    private var failed = false
    private var errors: [(node: Int, error: any Error)] = []
    private var outputs: [Int: FileOutput] = [:]
    private var timings: [Int: Double] = [:]

    /// At most this many stage threads start (tests: a thread that cannot be made); nil: no limit.
    var threadLimit: Int?
    /// Stops the run when cancelled (`Runner.cancellation`).
    var cancellation: RunCancellation?
    /// Hears each stage start and finish (`Runner.progress`).
    var progress: (@Sendable (StageProgress) -> Void)?
    private var cancelled = false
    private var finishedCount = 0

    init(pipeline: Pipeline, plan: StreamPlan, contexts: [StageContext], file: String) {
        self.pipeline = pipeline
        self.plan = plan
        self.contexts = contexts
        self.file = file
        var streams: [Int: RowStream] = [:]
        // Every image a stage streams is held to the run's pixel limits when it begins, before a row.
        for node in pipeline.nodes where plan.streamedOutput[node.index] {
            streams[node.index] = RowStream(limits: contexts[node.index].options.limits, minimumBandPixels: RowStream.thinBandPixels)
        }
        self.streams = streams
        // Whole values are kept until every consumer that takes them has run.
        var uses = [Int](repeating: 0, count: pipeline.nodes.count)
        for node in pipeline.nodes {
            for source in Set(node.inputs.flatMap(\.sources)) where !plan.streamedOutput[source] { uses[source] += 1 }
        }
        remainingUses = uses
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T { try lock.locked(body) }

    func run() throws(SumiError) -> Runner.Result {
        let nodes = pipeline.nodes
        let token = cancellation?.onCancel { [self] in
            locked { cancelled = true }
            stopAll()
        }
        defer { cancellation?.remove(token) }
        do {
            try PosixThreads.run(pipeline.order.map { index in { self.execute(index) } }, stop: stopAll, limit: threadLimit)
        } catch {
            // The stages already started were stopped (every stream failed) and have returned.
            throw SumiError(.run, file: file, stage: nodes[pipeline.order[error.index]].entry.place,
                            "could not start a thread for the stage: \(error.reason)")
        }
        let state = locked { (errors, outputs, timings, cancelled) }
        // A run stopped by its cancellation fails as cancelled, whatever errors the stop caused;
        // one whose stages all ended first succeeded.
        if !state.0.isEmpty, state.3 {
            throw SumiError(.cancelled, file: file, "the run was cancelled")
        }
        if let (node, error) = state.0.first(where: { !($0.error is RowStream.ProducerFailed) }) ?? state.0.first {
            throw Runner.placed(error, file: file, entry: nodes[node].entry)
        }
        return Runner.Result(
            outputs: nodes.compactMap { n in state.1[n.index].map { (n.entry.reportID, $0) } },
            timings: nodes.map { ($0.entry.reportID, $0.descriptor.name, state.2[$0.index] ?? 0) })
    }

    /// Runs one node on the calling thread: waits for its inputs, runs it, publishes its value.
    private func execute(_ index: Int) {
        let node = pipeline.nodes[index]
        do {
            let inputs = try gather(node)
            report(index, .started, milliseconds: nil)
            let stopwatch = Stopwatch()
            var value: Value?
            if let stage = node.stage as? any RowStage {
                let output = streams[index]
                    ?? (stage.producesRows ? RowStream(capacity: Int.max, limits: contexts[index].options.limits) : nil)
                value = try stage.process(inputs, context: contexts[index], output: output)
                // The stage's result is final only once everything it read ended without error (a
                // decoder can fail after the last row a scale needed); a consumer that stopped reading
                // early must not leave its producer blocked.
                for (port, sources) in node.inputs where plan.access[index][port] == .rows {
                    guard let stream = streams[sources[0]] else { continue }
                    stream.discardRemaining()
                    try stream.waitForEnd()
                }
                if let output {
                    try stage.checkEnded(output: output)
                    if streams[index] == nil { value = .image(try output.image()) }
                } else {
                    value = try stage.checkEnded(value: value)
                }
            } else {
                value = try node.stage.process(inputs, context: contexts[index])
            }
            // A stage that made a whole image should have checked its size first; none passes on
            // one over the run's limits.
            if case .image(let image)? = value {
                try contexts[index].options.limits.check(width: image.width, height: image.height, making: "this stage")
            }
            finish(index, value: value, milliseconds: stopwatch.milliseconds)
        } catch {
            fail(index, error)
        }
    }

    /// The node's inputs: whole values taken from their producers, shapes and streams of streamed
    /// producers. Waits for what is not there yet; throws when the run failed meanwhile.
    private func gather(_ node: Pipeline.Node) throws -> StageInputs {
        var whole: [String: Value] = [:]
        var shapes: [String: ImageShape] = [:]
        var rows: [String: RowStream] = [:]
        var taken: [Int: Value] = [:]
        for (port, sources) in node.inputs {
            if sources.count == 1, let stream = streams[sources[0]] {
                if plan.access[node.index][port] == .rows {
                    rows[port] = stream
                } else {
                    shapes[port] = try stream.waitForStart()
                }
                continue
            }
            let collected = try sources.map { source in
                if let value = taken[source] { return value }
                let value = try take(source)
                taken[source] = value
                return value
            }
            if sources.count == 1, let only = collected.first {
                whole[port] = only
            } else {
                whole[port] = .images(ImageList(sources: collected.flatMap { value -> [ImageSource] in
                    switch value {
                    case .image(let i): [ImageSource(i)]
                    case .images(let l): l.sources
                    default: []
                    }
                }))
            }
        }
        return StageInputs(whole, shapes: shapes, streams: rows)
    }

    /// Waits for a whole value and takes one use of it (the last use drops the engine's reference).
    private func take(_ source: Int) throws -> Value {
        try locked {
            while !failed && values[source] == nil { lock.wait() }
            if failed { throw RowStream.ProducerFailed() }
            let value = values[source].unsafelyUnwrapped
            remainingUses[source] -= 1
            if remainingUses[source] <= 0 { values[source] = nil }
            return value
        }
    }

    /// Stops every stage: each wait fails, so the stages already started return.
    private func stopAll() {
        locked {
            failed = true
            values = [:]
            lock.broadcast()
        }
        for stream in streams.values { stream.fail(RowStream.ProducerFailed()) }
    }

    private func finish(_ index: Int, value: Value?, milliseconds: Double) {
        locked {
            timings[index] = milliseconds
            if case .file(let f)? = value { outputs[index] = f }
            if remainingUses[index] > 0, let value { values[index] = value }
            lock.broadcast()
        }
        report(index, .finished, milliseconds: milliseconds)
    }

    private func report(_ index: Int, _ event: StageProgress.Event, milliseconds: Double?) {
        guard let progress else { return }
        let finished = locked { () -> Int in
            if event == .finished { finishedCount += 1 }
            return finishedCount
        }
        let node = pipeline.nodes[index]
        progress(StageProgress(event: event, id: node.entry.reportID, stage: node.descriptor.name, index: index,
                               finishedStages: finished, stageCount: pipeline.nodes.count, milliseconds: milliseconds))
    }

    /// Records the error and stops everything: every stream and every wait fails.
    private func fail(_ index: Int, _ error: any Error) {
        locked {
            errors.append((index, error))
            failed = true
            values = [:]
            lock.broadcast()
        }
        for stream in streams.values { stream.fail(error) }
    }
}
