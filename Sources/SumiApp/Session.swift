#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SumiEngine
import SumiKit

/// The way into Sumi for a program, as `sumi run` and `sumi serve` use it: a session holds a run
/// policy; it prepares a request (a manifest path, a shipped pipeline's name or a one-line pipeline,
/// with inputs, output and settings) into checked runs and runs them.
///
/// ```swift
/// var request = RunRequest(pipeline: "decode ! scale width=512 ! encode quality=85")
/// request.inputs = ["photo.jpg"]
/// request.output = "thumb.jpg"
/// let outcomes = try Session().run(request)
/// ```
public struct Session: Sendable {
    public var policy: RunPolicy
    /// Stages of the program's own, registered after the built-in ones (and before plugins), exactly
    /// as a plugin's are: a manifest or one-line pipeline of this session can use them.
    public var stages: [StageDefinition]

    public init(policy: RunPolicy = RunPolicy(), stages: [StageDefinition] = []) {
        self.policy = policy
        self.stages = stages
    }

    /// The request prepared under this session's policy: plugins loaded, settings typed, inputs
    /// expanded, the batch planned and sharded. Nothing is decoded yet.
    public func prepare(_ request: RunRequest, warn: @escaping (String) -> Void = { _ in }) throws(SumiError) -> Invocation {
        try Invocation(request: request, policy: policy, stages: stages, warn: warn)
    }

    /// Prepares `request`, checks every run (a failure there throws, before any run starts), then
    /// runs them, `jobs` at once; one failing run does not stop the others. `finished` hears each
    /// run as it ends, `progress` each stage of a run (by the run's index) as it starts and
    /// finishes. Cancelling `cancel` stops the runs under way (each fails as `.cancelled`, writing
    /// nothing) and leaves out those not started.
    @discardableResult
    public func run(_ request: RunRequest, jobs: Int = 1, cancel: Cancellation? = nil,
                    warn: @escaping @Sendable (String) -> Void = { _ in },
                    progress: (@Sendable (_ run: Int, _ stage: StageProgress) -> Void)? = nil,
                    finished: @escaping @Sendable (RunOutcome) -> Void = { _ in }) throws(SumiError) -> [RunOutcome] {
        let invocation = try prepare(request, warn: warn)
        var tasks: [(input: String?, pipeline: Pipeline)] = []
        for run in invocation.runs { tasks.append((run.input, try invocation.pipeline(for: run))) }
        let outcomes = Mutex<[RunOutcome]>([])
        invocation.execute(tasks, jobs: jobs, cancel: cancel, warn: warn, progress: progress) { outcome in
            outcomes.withLock { $0.append(outcome) }
            finished(outcome)
        }
        return outcomes.withLock { $0 }
    }
}

/// What one run of a request gave: its input (in a batch) and its result or error.
public struct RunOutcome: Sendable {
    /// The batch input of the run; nil for a run that is not one of a batch's.
    public let input: String?
    public let result: Result<Runner.Result, SumiError>
    /// The run's index among the request's runs to run.
    public let index: Int
}

/// Stops a session's runs from another thread: those under way stop (failing as `.cancelled`,
/// writing nothing), those not started are left out.
public typealias Cancellation = RunCancellation

extension Invocation {
    /// Runs `tasks` (checked pipelines of this invocation), up to `jobs` at once, after creating the
    /// folders of every file they write; reports each as it ends. One thread per job, not
    /// Dispatch's pool: a runner waits for its stages, and blocked pool threads would starve the
    /// stages it dispatched; the jobs need nothing from each other, so a thread that cannot be made
    /// only means fewer jobs at once.
    package func execute(_ tasks: [(input: String?, pipeline: Pipeline)], jobs: Int, cancel: Cancellation? = nil,
                         warn: @escaping @Sendable (String) -> Void,
                         progress: (@Sendable (_ run: Int, _ stage: StageProgress) -> Void)? = nil,
                         finished: @escaping @Sendable (RunOutcome) -> Void) {
        let confinement = policy.writeConfinement(output: request.output)
        let options = policy.runOptions
        let columns = inlineColumns
        // Every file a stage writes (the output, and `encode path=new/x.jpg` alike) gets its folders.
        OutputFolders.create(for: tasks.flatMap { task in
            var files = PipelineWrites.files(of: task.pipeline)
            if case .path(let out)? = task.pipeline.values["output"], !files.contains(out) { files.append(out) }
            return files
        })
        defer { OutputFolders.removeUnused() }
        let runOne: @Sendable (Int) -> Void = { index in
            guard cancel?.isCancelled != true else { return }
            let (input, pipeline) = tasks[index]
            do throws(SumiError) {
                var runner = Runner(pipeline: pipeline, writeConfinement: confinement, options: options, warn: warn)
                runner.cancellation = cancel
                if let progress { runner.progress = { progress(index, $0) } }
                let result = try runner.run()
                finished(RunOutcome(input: input, result: .success(result), index: index))
            } catch {
                finished(RunOutcome(input: input, result: .failure(columns.map { InlinePipeline.locate(error, columns: $0) } ?? error), index: index))
            }
        }
        let jobs = min(max(1, jobs), tasks.count)
        if jobs <= 1 {
            for i in tasks.indices { runOne(i) }
        } else {
            let next = Mutex(0)
            PosixThreads.work(count: jobs) {
                while let i = next.withLock({ n -> Int? in
                    guard n < tasks.count else { return nil }
                    defer { n += 1 }
                    return n
                }) { runOne(i) }
            }
        }
    }
}
