#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiEngine
import SumiKit
import Synchronization

/// `sumi run`: validates every run first, then runs them (up to `--jobs` at once in batch mode),
/// reporting each; one failing input does not stop the others.
struct RunCommand {
    let arguments: Arguments

    func execute() -> Int32 {
        let quiet = arguments.quiet
        let invocation: Invocation
        var pipelines: [(input: String?, pipeline: Pipeline)] = []
        do throws(SumiError) {
            invocation = try arguments.invocation { if !quiet { Terminal.warning($0) } }
            if arguments.batch.printManifest {
                // Printed as written, before any value is needed.
                guard let json = invocation.inlineJSON else {
                    throw SumiError.usage("--print-manifest prints an inline pipeline as a manifest; \(arguments.target ?? "") is a manifest already (--print-inline goes the other way)")
                }
                Terminal.standardOutput(InlinePipeline.pretty(json))
                return 0
            }
            for run in invocation.runs { pipelines.append((run.input, try invocation.pipeline(for: run))) }
        } catch {
            Terminal.error(error)
            if arguments.json {
                let name = FileIO.stem(of: arguments.target ?? "")
                Terminal.standardOutput(RunReport.failure(pipeline: name, input: nil, error: error).serialized() + "\n")
            }
            return error.exitCode
        }
        if arguments.batch.printInline {
            for (_, pipeline) in pipelines { Terminal.standardOutput(InlineForm.text(of: pipeline) + "\n") }
            return 0
        }
        let plan = BatchPlan(invocation: invocation, pipelines: pipelines, skipExisting: arguments.batch.skipExisting)
        if arguments.batch.dryRun {
            let text = plan.dryRunText(json: arguments.json, quiet: quiet)
            Terminal.standardOutput(arguments.json ? text : Terminal.printable(text))
            return 0
        }

        let overrides = invocation.overrides
        let manifest = invocation.manifest
        let columns = invocation.inlineColumns
        let warn: @Sendable (String) -> Void = { message in
            if !quiet && overrides.shouldShow(message, manifest: manifest) {
                Terminal.warning(columns.map { InlinePipeline.locate(message, manifest: manifest, columns: $0) } ?? message)
            }
        }
        let batch = invocation.totalInputs > 1
        let tasks = plan.toRun
        let progress = tasks.count > 1 && !quiet && Terminal.standardErrorIsTerminal ? ProgressBar(total: tasks.count) : nil
        let json = arguments.json
        let name = invocation.manifest.name
        let worst = WorstExit()
        let tally = BatchTally()
        if json { for skipped in plan.skipped { Self.emit(plan.skipReport(skipped), toStderr: false) } }
        defer {
            if json && (invocation.shard != nil || arguments.batch.skipExisting) {
                Self.emit(plan.summary(ok: tally.ok, failed: tally.failed), toStderr: false)
            }
        }
        let jobs = arguments.jobs ?? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        invocation.execute(tasks, jobs: jobs, warn: warn) { outcome in
            let input = outcome.input
            let reported = batch ? input : nil
            let reportToStderr = PipelineWrites.writesToStandardOutput(tasks[outcome.index].pipeline)
            switch outcome.result {
            case .success(let result):
                if json { Self.emit(RunReport.success(pipeline: name, input: reported, result: result), toStderr: reportToStderr) }
                tally.record(ok: true)
                progress?.advance(item: input ?? name, ok: true)
            case .failure(let error):
                progress?.clearLine()
                Terminal.error(error)
                if json { Self.emit(RunReport.failure(pipeline: name, input: reported, error: error), toStderr: reportToStderr) }
                worst.record(error.exitCode)
                tally.record(ok: false)
                progress?.advance(item: input ?? name, ok: false)
            }
        }
        return worst.code
    }

    static func emit(_ report: JSONValue, toStderr: Bool) {
        let line = report.serialized() + "\n"
        if toStderr { Terminal.standardError(line) } else { Terminal.standardOutput(line) }
    }
}

/// The highest exit code seen across batch runs.
final class WorstExit: Sendable {
    private let value = Mutex<Int32>(0)
    func record(_ code: Int32) { value.withLock { $0 = max($0, code) } }
    var code: Int32 { value.withLock { $0 } }
}

/// How many runs of a batch succeeded and failed.
final class BatchTally: Sendable {
    private let counts = Mutex<(ok: Int, failed: Int)>((0, 0))
    func record(ok: Bool) { counts.withLock { if ok { $0.ok += 1 } else { $0.failed += 1 } } }
    var ok: Int { counts.withLock { $0.ok } }
    var failed: Int { counts.withLock { $0.failed } }
}
