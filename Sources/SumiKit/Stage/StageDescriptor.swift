/// Everything Sumi knows about a stage before running it: the single source for validation,
/// `sumi stages`, `sumi inspect`, error messages and plugin descriptors.
public struct StageDescriptor: Sendable {
    /// The name used in manifests (`"stage": "scale"`).
    public var name: String
    public var summary: String
    /// Input ports in order. A stage with none (decode, text) starts a chain.
    public var inputs: [PortSpec]
    /// What the stage produces.
    public var output: ValueKind
    public var parameters: [ParameterSpec]

    public init(name: String, summary: String, inputs: [PortSpec] = [], output: ValueKind,
                parameters: [ParameterSpec] = []) {
        self.name = name
        self.summary = summary
        self.inputs = inputs
        self.output = output
        self.parameters = parameters
    }

    public func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }
}

/// A typed input port.
public struct PortSpec: Sendable, Hashable {
    public var name: String
    /// The kinds of value the port accepts.
    public var accepts: [ValueKind]
    public init(name: String, accepts: [ValueKind]) { self.name = name; self.accepts = accepts }
    public init(name: String, accepts: ValueKind) { self.init(name: name, accepts: [accepts]) }

    public var typeName: String { accepts.map(\.rawValue).joined(separator: "|") }
}

/// A stage parameter: its type, default and limits.
public struct ParameterSpec: Sendable {
    public var name: String
    public var type: ParamType
    /// Whether a manifest must give the parameter (then `defaultValue` is nil).
    public var required: Bool
    public var defaultValue: ParamValue?
    public var summary: String
    /// Inclusive numeric bounds, for `number` and `integer` (and each number of a list of them).
    public var min: Double?
    public var max: Double?
    /// Whether `min` itself is excluded (a size must be > 0).
    public var minExclusive: Bool
    /// The allowed values of a `string` enumeration.
    public var values: [String]?

    public init(_ name: String, _ type: ParamType, default defaultValue: ParamValue? = nil, required: Bool = false,
                min: Double? = nil, max: Double? = nil, minExclusive: Bool = false, values: [String]? = nil,
                summary: String) {
        self.name = name
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.summary = summary
        self.min = min
        self.max = max
        self.minExclusive = minExclusive
        self.values = values
    }
}
