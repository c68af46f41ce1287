import SumiKit

/// An error with its place: file, stage (index, id, name) and parameter. Its `description` is the one
/// line the CLI prints after `sumi: error: `.
public struct SumiError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Each kind has one exit status and one HTTP status, in one table
    /// (`exitStatus`, `httpStatus`); no caller reads a message to decide.
    public enum Kind: String, Sendable, CaseIterable {
        /// Command line, manifest or validation problem.
        case usage
        /// A run failed on its data (a damaged image, a failed conversion).
        case run
        /// No decoder recognises the input, or it is empty.
        case unsupported
        /// What the run would make or read passes a limit of the run.
        case limit
        /// Reading or writing a file failed.
        case io
        /// A plugin broke its contract or failed inside.
        case plugin
        /// A fault of Sumi itself (a request it could not describe, a broken invariant).
        case `internal`
        /// The run was stopped by its caller (`RunCancellation`).
        case cancelled

        /// The exit status of `sumi`: 2 for usage, else 1 (the contract of the first version).
        public var exitStatus: Int32 { self == .usage ? 2 : 1 }

        /// The status `sumi serve` answers: 400 for what the request asked wrongly or too much of,
        /// 415 for a body no decoder reads, 422 for an image the run could not use, 500 for the
        /// server's side (files, plugins, itself), 503 for a run stopped before its end.
        public var httpStatus: Int {
            switch self {
            case .usage, .limit: 400
            case .unsupported: 415
            case .run: 422
            case .io, .plugin, .internal: 500
            case .cancelled: 503
            }
        }

        public init(_ cause: StageError.Cause) {
            switch cause {
            case .data: self = .run
            case .usage: self = .usage
            case .unsupported: self = .unsupported
            case .limit: self = .limit
            case .io: self = .io
            case .plugin: self = .plugin
            }
        }
    }

    public var kind: Kind
    /// The manifest (or other file) concerned, as the user named it.
    public var file: String?
    /// "stages[1] \"label\" (text)".
    public var stage: String?
    public var parameter: String?
    public var message: String
    /// Whether a limit of the run refused it.
    public var isLimit: Bool { kind == .limit }

    public init(_ kind: Kind, file: String? = nil, stage: String? = nil, parameter: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.stage = stage
        self.parameter = parameter
        self.message = message
    }

    public static func usage(_ message: String, file: String? = nil) -> SumiError {
        SumiError(.usage, file: file, message)
    }

    public var exitCode: Int32 { kind.exitStatus }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let stage { parts.append(stage) }
        if let parameter { parts.append("parameter \"\(parameter)\"") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
