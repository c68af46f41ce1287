import SumiApp
import SumiEngine
import SumiKit

/// `sumi validate`: everything `run` checks before the first pixel, and nothing more. With
/// `--template`, required parameters without a value are listed instead of failing (a template is
/// checked with stand-in values); `--json` prints the verdict as one JSON object.
struct ValidateCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let target = arguments.target ?? ""
        do {
            let (stageCount, needs) = try check()
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

    /// Builds every planned run; returns the stage count and the required parameters left unset.
    func check() throws(SumiError) -> (Int, [String]) {
        let invocation = try arguments.invocation { message in
            if !arguments.quiet && !arguments.json { Terminal.warning(message) }
        }
        var stageCount = 0
        var needs: [String] = []
        for run in invocation.runs {
            var overrides = run.overrides
            if arguments.batch.template {
                for param in invocation.manifest.params where param.defaultValue == nil && overrides[param.name] == nil {
                    needs.append(param.name)
                    overrides[param.name] = Self.standIn(for: param.type, name: param.name)
                }
            }
            stageCount = try invocation.pipeline(for: run, overrides: overrides).nodes.count
        }
        return (stageCount, needs)
    }

    /// A well-formed value of `type` to check a template with (a path stands for a PNG file so that
    /// a writer can tell its format).
    static func standIn(for type: ParamType, name: String) -> ParamValue {
        switch type {
        case .string: .string(name)
        case .number: .number(1)
        case .integer: .integer(1)
        case .bool: .bool(false)
        case .path: .path("\(name).png")
        case .color: .color(Color(red: 0, green: 0, blue: 0))
        case .size: .size(Size(width: 1, height: 1))
        case .point: .point(Point(x: 0, y: 0))
        case .rect: .rect(Rect(x: 0, y: 0, width: 1, height: 1))
        case .list(let element): .list([standIn(for: element, name: name)])
        case .either(let types): types.first.map { standIn(for: $0, name: name) } ?? .string(name)
        case .keyword(let word): .string(word)
        case .tagged(let prefix, let inner): .string(prefix + standIn(for: inner, name: name).description)
        }
    }
}
