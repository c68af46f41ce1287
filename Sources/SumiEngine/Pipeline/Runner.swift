import SumiKit

/// Runs a validated pipeline: each stage once, on its own POSIX thread (`PipelineRun`), producers
/// before consumers, independent branches concurrently; images pass as row streams where both sides
/// can (`StreamPlan`), other values whole, each released as soon as its last consumer has taken it.
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

    /// Where stages may write files they name while running (a plugin's `write_file`); nil: anywhere.
    public let writeConfinement: WriteConfinement?

    /// The run's options, handed to every stage (`StageContext.options`).
    public var options: RunOptions

    /// At most this many stage threads start, as if the system refused more (for tests); nil: no limit.
    var threadLimit: Int?

    /// Stops the run from another thread (see `RunCancellation`); nil: it runs to its end.
    public var cancellation: RunCancellation?

    /// Hears each stage start (its inputs there) and finish, on the stage's thread.
    public var progress: (@Sendable (StageProgress) -> Void)?

    /// `options` are by default those of the process's environment (`RunOptions.environment`).
    public init(pipeline: Pipeline, writeConfinement: WriteConfinement? = nil, options: RunOptions = .environment,
                warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.pipeline = pipeline
        self.options = options
        self.writeConfinement = writeConfinement
        self.warn = warn
    }

    /// Runs the pipeline; the first stage error (with its place in the manifest), or a stage that
    /// could not be given a thread, fails the run.
    public func run() throws(SumiError) -> Result {
        let pipeline = self.pipeline
        let warn = self.warn, options = self.options
        let file = FileIO.fileName(of: pipeline.manifest.path)
        let notes = StageNotes()
        let contexts = pipeline.nodes.map { node -> StageContext in
            let index = node.index, place = node.entry.place
            var context = StageContext(warn: { message in
                notes.warn(index, message)
                warn("\(file): \(place): \(message)")
            }, sizeHint: SizeHint.forProducer(index, of: pipeline), report: { notes.report(index, $0) },
               formats: pipeline.formats, options: options)
            context.writeConfinement = writeConfinement
            context.temporaryFiles = SignalCleanup.temporaryFiles
            return context
        }
        let run = PipelineRun(pipeline: pipeline, plan: StreamPlan(pipeline: pipeline), contexts: contexts, file: file)
        run.threadLimit = threadLimit
        run.cancellation = cancellation
        run.progress = progress
        var result = try run.run()
        result.notes = notes.notes(for: pipeline.nodes.map(\.index))
        return result
    }

    /// Gives an error from a stage its place in the manifest.
    static func placed(_ error: any Error, file: String, entry: ManifestStage) -> SumiError {
        switch error {
        case let e as StageError:
            return SumiError(SumiError.Kind(e.cause), file: file, stage: entry.place, parameter: e.parameter, e.message)
        case var e as SumiError:
            if e.stage == nil { e.stage = entry.place; e.file = e.file ?? file }
            return e
        default:
            return SumiError(.run, file: file, stage: entry.place, "\(error)")
        }
    }
}
