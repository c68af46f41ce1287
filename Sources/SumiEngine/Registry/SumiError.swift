import SumiKit

/// An error with its place: file, stage (index, id, name) and parameter. Its `description` is the one
/// line the CLI prints after `sumi: error: `.
public struct SumiError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// Command line, manifest or validation problem: exit code 2.
        case usage
        /// A run failed (unreadable image, I/O): exit code 1.
        case run
    }

    public var kind: Kind
    /// The manifest (or other file) concerned, as the user named it.
    public var file: String?
    /// "stages[1] \"label\" (text)".
    public var stage: String?
    public var parameter: String?
    public var message: String
    /// Whether a limit of the run refused it (`StageError.isLimit`): `sumi serve` answers 400.
    public var isLimit = false

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

    public var exitCode: Int32 { kind == .usage ? 2 : 1 }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let stage { parts.append(stage) }
        if let parameter { parts.append("parameter \"\(parameter)\"") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
