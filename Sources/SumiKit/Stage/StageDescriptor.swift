/// Everything Sumi knows about a stage before running it: the single source for validation,
/// `sumi stages`, `sumi inspect`, error messages and plugin descriptors.
public struct StageDescriptor: Sendable {
    /// The name used in manifests (`"stage": "scale"`).
    public var name: String
    public var summary: String
    /// Input ports in order. A stage with none (decode, text) starts a chain.
    public var inputs: [PortSpec]
    /// What the stage produces (with `listOutputParameter`: when that parameter is a single value).
    public var output: ValueKind
    /// When set, the stage produces a list (`images`) whenever this parameter is given as a list
    /// (`decode` of several paths). Validation checks wiring against the kind that follows.
    public var listOutputParameter: String?
    /// What the stage does to the image on its first input port, for the side-data rules.
    public var effect: ImageEffect
    public var parameters: [ParameterSpec]
    /// What this machine provides for the stage (the data files it finds installed), read when
    /// `sumi inspect` or `sumi formats` asks, never at start-up; nil for most stages.
    public var localFacts: (@Sendable () -> String)?

    public init(name: String, summary: String, inputs: [PortSpec] = [], output: ValueKind,
                listOutputParameter: String? = nil, effect: ImageEffect? = nil,
                parameters: [ParameterSpec] = []) {
        self.name = name
        self.summary = summary
        self.inputs = inputs
        self.output = output
        self.listOutputParameter = listOutputParameter
        self.effect = effect ?? (inputs.isEmpty || output != .image ? .creates : .unknown)
        self.parameters = parameters
    }

    /// The kind of value the stage produces with these (checked) parameters.
    public func outputKind(for parameters: Parameters) -> ValueKind {
        if let name = listOutputParameter, case .list? = parameters[name] { return .images }
        return output
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
    /// The stage's own limit for a confined run (`--safe`): the largest number it takes (a number
    /// parameter not given gets this value), or the most characters of a string.
    public var safeMax: Double?
    /// For a string that names either something else or a file the stage reads (`text`'s `font`:
    /// fontconfig families or a font file): the file a value names, nil when it names none. A
    /// confined run (`--safe`) lets such a file be read only below the folders of its inputs.
    public var namedFile: (@Sendable (String) -> String?)?

    public init(_ name: String, _ type: ParamType, default defaultValue: ParamValue? = nil, required: Bool = false,
                min: Double? = nil, max: Double? = nil, minExclusive: Bool = false, values: [String]? = nil,
                safeMax: Double? = nil, summary: String) {
        self.safeMax = safeMax
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

/// What a stage does to the image on its first input port, as the side-data rules see it
/// (`ImageChange`). Swift stages state the exact change of each image with
/// `ImageMetadata.applying(_:)`; the plugin host applies the declared effect for plugin stages.
public enum ImageEffect: String, Sendable, CaseIterable {
    /// The output is a new image (a source such as `decode`, or a stage whose output is not an image).
    case creates
    /// Pixel values change; every pixel stays where it was.
    case pixels
    /// Pixels move (crop, scale, flip, rotation); the stage states the transform.
    case geometry
    /// Not described: every entry that depends on pixel positions is dropped.
    case unknown
}
