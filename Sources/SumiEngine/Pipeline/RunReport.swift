import SumiKit

/// The JSON object `sumi run --json` prints for one pipeline run: its outputs, and for each stage
/// its time, its warnings (when it gave some) and the details it gave (`StageContext.report`).
public enum RunReport {
    public static func success(pipeline: String, input: String?, result: Runner.Result) -> JSONValue {
        var members: [(String, JSONValue)] = [("pipeline", .string(pipeline)), ("ok", .bool(true))]
        if let input { members.append(("input", .string(input))) }
        members.append(("outputs", .array(result.outputs.map { output(stage: $0.stage, $0.file) })))
        members.append(("stages", .array(result.timings.indices.map { i in
            let timing = result.timings[i]
            var stage: [(String, JSONValue)] = [("id", .string(timing.id)), ("stage", .string(timing.stage)),
                                                ("ms", .number((timing.milliseconds * 10).rounded() / 10))]
            let note = i < result.notes.count ? result.notes[i] : StageNotes.Note()
            if !note.warnings.isEmpty { stage.append(("warnings", .array(note.warnings.map { .string($0) }))) }
            if let details = note.details { stage.append(("details", details)) }
            return .object(stage)
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
