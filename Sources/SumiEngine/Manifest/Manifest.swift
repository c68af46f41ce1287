import SumiKit

/// A pipeline manifest as written: parameters and stages, before anything is resolved or checked
/// against the stage registry. `ManifestLoader` builds it; `PipelineBuilder` validates it.
public struct Manifest: Sendable {
    /// The manifest's path as the user gave it (used in messages).
    public var path: String
    /// The manifest's folder: the value of `${here}`.
    public var here: String
    public var name: String
    public var summary: String?
    /// Declared parameters, in document order.
    public var params: [ManifestParameter]
    public var stages: [ManifestStage]
    /// Plugin library paths to load for this manifest (`${here}` already substituted).
    public var plugins: [String]

    public func parameter(named name: String) -> ManifestParameter? {
        params.first { $0.name == name }
    }
}

/// A parameter the manifest declares (`"params": {"text": {"type": "string", "default": "Hello"}}`).
public struct ManifestParameter: Sendable {
    public var name: String
    public var type: ParamType
    /// The default, already parsed by `type`; `nil` makes the parameter required.
    public var defaultValue: ParamValue?
    public var summary: String?
}

/// One entry of `stages`.
public struct ManifestStage: Sendable {
    /// Position in `stages` (0-based).
    public var index: Int
    public var id: String?
    /// The stage name (`"stage": "scale"`).
    public var stage: String
    public var from: StageSource
    /// Parameters as written (`${...}` not yet substituted), in order.
    public var with: [(String, JSONValue)]

    /// How messages name the stage: `stages[1] "label" (text)`.
    public var place: String {
        let name = MessageText.cut(stage)
        return if let id { "stages[\(index)] \"\(MessageText.cut(id))\" (\(name))" } else { "stages[\(index)] (\(name))" }
    }

    /// The name used in run reports: the id, or the stage name.
    public var reportID: String { id ?? stage }
}

/// Where a stage's inputs come from.
public enum StageSource: Sendable {
    /// `from` absent: the previous stage's output.
    case previous
    /// `"from": "photo"`.
    case single(String)
    /// `"from": ["a", "b"]`: an ordered list of inputs.
    case list([String])
    /// `"from": {"base": "photo", "layer": "label"}`: port → stage id.
    case ports([(String, String)])
}
