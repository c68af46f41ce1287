import SumiEngine
import SumiKit

/// What the server asks a worker (`sumi __serve-worker`) to run, and what the worker answers: one
/// JSON line each way over the worker's pipes, written and read here only.
struct WorkerRequest: Equatable {
    /// The manifest of the served pipeline.
    var manifest: String
    /// The run's inputs (uploaded bodies, or a file opened below --root by its descriptor's name).
    var inputs: [String]
    /// Where the worker writes the answer's file.
    var output: String
    /// Settings from the query or form: manifest parameters by name, stage parameters by ID.PARAM.
    var settings: [(name: String, value: String)] = []
    /// The request's other uploaded files, which its settings may name.
    var reads: [String] = []
    /// Files the server opened below --root, named by descriptor (`RootFile`).
    var opened: [String] = []
    /// The server's --root, below which settings may name files.
    var root: String?
    /// The server's --max-pixels: the most pixels of any image a stage makes.
    var maxPixels: Int
    /// The server's --plugin-path folders (a request cannot name plugins).
    var plugins: [String] = []
    /// The server's --max-answer in bytes: the most bytes of the answer's file.
    var maxAnswerBytes: Int?

    static func == (a: WorkerRequest, b: WorkerRequest) -> Bool { a.json == b.json }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("manifest", .string(manifest)), ("inputs", Self.strings(inputs)), ("output", .string(output)),
            ("set", .array(settings.map { .array([.string($0.name), .string($0.value)]) })),
            ("reads", Self.strings(reads)), ("opened", Self.strings(opened)),
            ("max-pixels", .number(Double(maxPixels))), ("plugins", Self.strings(plugins)),
        ]
        if let root { members.append(("root", .string(root))) }
        if let maxAnswerBytes { members.append(("max-answer", .number(Double(maxAnswerBytes)))) }
        return .object(members)
    }

    /// The request a line describes; nil when a member the run needs is missing or of another type.
    init?(json: JSONValue) {
        guard let manifest = json["manifest"]?.stringValue, let output = json["output"]?.stringValue,
              let maxPixels = json["max-pixels"]?.numberValue, maxPixels >= 1, maxPixels <= Double(Int.max / 2) else { return nil }
        self.manifest = manifest
        self.output = output
        self.maxPixels = Int(maxPixels)
        inputs = Self.strings(json["inputs"])
        reads = Self.strings(json["reads"])
        opened = Self.strings(json["opened"])
        plugins = Self.strings(json["plugins"])
        root = json["root"]?.stringValue
        maxAnswerBytes = json["max-answer"]?.numberValue.flatMap { $0 >= 1 && $0 <= Double(Int.max / 2) ? Int($0) : nil }
        settings = (json["set"]?.arrayValue ?? []).compactMap { pair in
            guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue, let value = items[1].stringValue else { return nil }
            return (name, value)
        }
    }

    init(manifest: String, inputs: [String], output: String, maxPixels: Int) {
        self.manifest = manifest
        self.inputs = inputs
        self.output = output
        self.maxPixels = maxPixels
    }

    private static func strings(_ items: [String]) -> JSONValue { .array(items.map { .string($0) }) }
    private static func strings(_ json: JSONValue?) -> [String] { (json?.arrayValue ?? []).compactMap(\.stringValue) }
}

/// A worker's answer: the output's format and the run report, or the failure's kind (which gives the
/// HTTP status, `SumiError.Kind.httpStatus`), message and place.
enum WorkerAnswer {
    case success(format: String, report: JSONValue)
    case failure(kind: SumiError.Kind, message: String, stage: String?, parameter: String?)

    init(_ error: SumiError) {
        self = .failure(kind: error.kind, message: error.message, stage: error.stage, parameter: error.parameter)
    }

    var json: JSONValue {
        switch self {
        case .success(let format, let report):
            return .object([("status", .number(200)), ("format", .string(format)), ("report", report)])
        case .failure(let kind, let message, let stage, let parameter):
            return .object([("status", .number(Double(kind.httpStatus))), ("kind", .string(kind.rawValue)), ("error", .string(message)),
                            ("stage", stage.map { .string($0) } ?? .null), ("parameter", parameter.map { .string($0) } ?? .null)])
        }
    }

    /// The answer a line holds; a line that is not one is an internal failure.
    init(json: JSONValue) {
        if json["status"]?.numberValue == 200 {
            self = .success(format: json["format"]?.stringValue ?? "", report: json["report"] ?? .null)
            return
        }
        let kind = json["kind"]?.stringValue.flatMap(SumiError.Kind.init(rawValue:)) ?? .internal
        self = .failure(kind: kind, message: json["error"]?.stringValue ?? "the run failed",
                        stage: json["stage"]?.stringValue, parameter: json["parameter"]?.stringValue)
    }
}
