import SumiApp
import SumiEngine
import SumiKit

/// `sumi validate`: `Invocation.validate` (everything `run` checks before the first pixel; with
/// `--template`, the required parameters without a value listed instead of failing), printed as a
/// line or, with `--json`, one JSON object.
struct ValidateCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let target = arguments.target ?? ""
        do {
            let verdict = try arguments.invocation { message in
                if !arguments.quiet && !arguments.json { Terminal.warning(message) }
            }.validate(template: arguments.batch.template)
            let (stageCount, needs) = (verdict.stageCount, verdict.needs)
            if arguments.json {
                Terminal.standardOutput(JSONValue.object([
                    ("manifest", .string(target)), ("valid", .bool(true)), ("stages", .number(Double(stageCount))),
                    ("needs", .array(needs.map { .string($0) })),
                ]).serialized() + "\n")
            } else if !arguments.quiet {
                let missing = needs.isEmpty ? "" : "; a template: still needs \(needs.joined(separator: ", "))"
                Terminal.standardOutput("\(target): valid (\(stageCount) stages)\(missing)\n")
            }
            return 0
        } catch {
            guard arguments.json else { throw error }
            var members: [(String, JSONValue)] = [("manifest", .string(target)), ("valid", .bool(false)),
                                                   ("error", .string(error.description))]
            if let file = error.file { members.append(("file", .string(file))) }
            if let stage = error.stage { members.append(("stage", .string(stage))) }
            if let parameter = error.parameter { members.append(("parameter", .string(parameter))) }
            Terminal.standardOutput(JSONValue.object(members).serialized() + "\n")
            return error.exitCode
        }
    }
}
