import Dispatch
#if canImport(Glibc)
import Glibc
#endif
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
        /// Each stage's warnings and details, in manifest order (as `timings`).
        var notes: [StageNotes.Note] = []
    }

    public let pipeline: Pipeline
    /// Receives warnings, already prefixed with the stage's place.
    public let warn: @Sendable (String) -> Void

    /// Whether images may pass between stages as bounded row streams (`StreamPlan`); when false every
    /// stage gets and gives whole images. Both give the same bytes; tests compare them.
    public let streaming: Bool

    /// Where stages may write files they name while running (a plugin's `write_file`); nil: anywhere.
    public let writeConfinement: WriteConfinement?

    /// Streaming is on unless the environment sets `SUMI_STREAMING=0` (or `off`).
    public static var streamingByDefault: Bool {
        guard let value = getenv("SUMI_STREAMING") else { return true }
        return !["0", "off", "no", "false"].contains(String(cString: value).lowercased())
    }

    /// At most this many stage threads start, as if the system refused more (for tests); nil: no limit.
    var threadLimit: Int?

    public init(pipeline: Pipeline, streaming: Bool = Runner.streamingByDefault,
                writeConfinement: WriteConfinement? = nil, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.pipeline = pipeline
        self.streaming = streaming
        self.writeConfinement = writeConfinement
        self.warn = warn
    }

    /// Runs the pipeline. When images can stream (see `StreamPlan`), every stage runs on its own
    /// thread, connected by row streams (`StreamedRun`). Otherwise the calling thread runs stages
    /// itself; when several stages are ready at once, the others go to Dispatch's pool, whose tasks never block — so a batch of pipelines, each
    /// on its own thread, cannot starve the pool.
    public func run() throws(SumiError) -> Result {
        let schedule = Schedule(pipeline: pipeline)
        let finished = DispatchSemaphore(value: 0)
        let pipeline = self.pipeline
        let warn = self.warn
        let writeConfinement = self.writeConfinement
        let file = FileIO.fileName(of: pipeline.manifest.path)
        let notes = StageNotes()

        @Sendable func context(for index: Int) -> StageContext {
            let place = pipeline.nodes[index].entry.place
            var context = StageContext(warn: { message in
                notes.warn(index, message)
                warn("\(file): \(place): \(message)")
            }, sizeHint: schedule.sizeHint(for: index), report: { notes.report(index, $0) })
            context.writeConfinement = writeConfinement
            return context
        }
        func noted(_ result: Result) -> Result {
            var result = result
            result.notes = notes.notes(for: pipeline.nodes.map(\.index))
            return result
        }

        if streaming {
            let plan = StreamPlan(pipeline: pipeline)
            if plan.streamsAnything {
                let run = StreamedRun(pipeline: pipeline, plan: plan, contexts: pipeline.nodes.map { context(for: $0.index) },
                                      file: file)
                run.threadLimit = threadLimit
                return noted(try run.run())
            }
        }

        @Sendable func execute(_ index: Int) {
            let node = pipeline.nodes[index]
            guard let inputs = schedule.takeInputs(for: index).map({ StageInputs($0) }) else {
                schedule.abandon(index)
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
                return noted(try schedule.result())
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
