import SumiKit

/// The JSON object `sumi run --json` prints for one pipeline run.
public enum RunReport {
    public static func success(pipeline: String, input: String?, result: Runner.Result) -> JSONValue {
        var members: [(String, JSONValue)] = [("pipeline", .string(pipeline)), ("ok", .bool(true))]
        if let input { members.append(("input", .string(input))) }
        members.append(("outputs", .array(result.outputs.map { output(stage: $0.stage, $0.file) })))
        members.append(("stages", .array(result.timings.map {
            .object([("id", .string($0.id)), ("stage", .string($0.stage)),
                     ("ms", .number(($0.milliseconds * 10).rounded() / 10))])
        })))
        return .object(members)
    }

    public static func failure(pipeline: String, input: String?, error: SumiError) -> JSONValue {
        var members: [(String, JSONValue)] = [("pipeline", .string(pipeline)), ("ok", .bool(false))]
        if let input { members.append(("input", .string(input))) }
        members.append(("error", .string(error.description)))
        return .object(members)
    }

    static func output(stage: String, _ file: FileOutput) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("stage", .string(stage)), ("path", .string(file.path)), ("format", .string(file.format)),
            ("bytes", .number(Double(file.bytes))), ("width", .number(file.width)), ("height", .number(file.height)),
        ]
        if let pages = file.pages { members.append(("pages", .number(Double(pages)))) }
        if let current = file.currentPage { members.append(("currentPage", .number(Double(current)))) }
        if let r = file.rectInCurrentPage {
            members.append(("rectInCurrentPage", .array([r.x, r.y, r.width, r.height].map { .number($0) })))
        }
        return .object(members)
    }
}
