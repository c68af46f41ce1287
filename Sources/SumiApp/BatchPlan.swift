#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// The validated runs of `sumi run`, split into those to run and those `--skip-existing` skips; the
/// `--dry-run` plan and the per-shard summary.
package struct BatchPlan {
    package typealias Task = (input: String?, pipeline: Pipeline)

    package let invocation: Invocation
    /// Every run in order, and whether it is skipped.
    package let entries: [(task: Task, skip: Bool)]
    package var toRun: [Task] { entries.filter { !$0.skip }.map(\.task) }
    package var skipped: [Task] { entries.filter(\.skip).map(\.task) }
    private let started = BatchPlan.now()

    package init(invocation: Invocation, pipelines: [Task], skipExisting: Bool) {
        self.invocation = invocation
        // Outputs are written atomically, so an existing output is a finished one.
        entries = pipelines.map { task in
            guard skipExisting, let output = Self.output(of: task.pipeline), output != "-" else { return (task, false) }
            return (task, FileIO.isRegularFile(output))
        }
    }

    package static func output(of pipeline: Pipeline) -> String? {
        switch pipeline.values["output"] {
        case .path(let p)?, .string(let p)?: p
        default: nil
        }
    }

    package static func input(of pipeline: Pipeline) -> String {
        pipeline.values["input"]?.description ?? "(no input)"
    }

    /// `--dry-run`: one line per run (`input -> output`), or one JSON object per run with `--json`.
    package func dryRunText(json: Bool, quiet: Bool) -> String {
        var text = ""
        for (task, skip) in entries {
            let input = Self.input(of: task.pipeline), output = Self.output(of: task.pipeline)
            if json {
                var members: [(String, JSONValue)] = [("input", .string(input))]
                members.append(("output", output.map { .string($0) } ?? .null))
                members.append(("skip", .bool(skip)))
                text += JSONValue.object(members).serialized() + "\n"
            } else {
                text += "\(input) -> \(output ?? "(no output parameter)")\(skip ? "  (exists, skipped)" : "")\n"
            }
        }
        let toRun = self.toRun, skipped = self.skipped
        if !json && !quiet {
            let shard = invocation.shard.map { " in shard \($0) of \(invocation.totalInputs) inputs" } ?? ""
            text += "dry run: \(toRun.count) run\(toRun.count == 1 ? "" : "s") planned\(skipped.isEmpty ? "" : ", \(skipped.count) skipped")\(shard); nothing was decoded or written\n"
        }
        return text
    }

    /// The JSON line for a run skipped because its output exists.
    package func skipReport(_ task: Task) -> JSONValue {
        var members: [(String, JSONValue)] = [("pipeline", .string(invocation.manifest.name)), ("ok", .bool(true)), ("skipped", .bool(true))]
        if let input = task.input { members.append(("input", .string(input))) }
        if let output = Self.output(of: task.pipeline) { members.append(("output", .string(output))) }
        return .object(members)
    }

    /// The per-shard summary line of `--json` with `--shard` or `--skip-existing`.
    package func summary(ok: Int, failed: Int) -> JSONValue {
        let seconds = ((Self.now() - started) * 100).rounded() / 100
        return .object([
            ("shard", invocation.shard.map { .string($0.description) } ?? .null),
            ("inputs", .number(Double(invocation.totalInputs))),
            ("assigned", .number(Double(entries.count))),
            ("skipped", .number(Double(skipped.count))),
            ("ran", .number(Double(ok + failed))),
            ("ok", .number(Double(ok))),
            ("failed", .number(Double(failed))),
            ("seconds", .number(seconds)),
        ])
    }

    package static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
