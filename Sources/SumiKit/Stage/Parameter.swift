/// A stage parameter declared once: its name, type, default, range and summary feed the descriptor
/// (validation, `sumi inspect`, the plugin JSON, the schema), and the stage reads its value typed
/// through the same key, so no default or list of allowed words is written twice.
///
/// ```swift
/// static let width = Parameter<Int?>("width", min: 1, max: 65535, summary: "output width")
/// static let fit = Parameter<Fit>("fit", default: .contain, summary: "how both sides fit")
/// static let descriptor = StageDescriptor(..., parameters: [width.spec, fit.spec])
/// init(parameters: Parameters) throws { width = try parameters[Self.width]; fit = try parameters[Self.fit] }
/// ```
public struct Parameter<Value: ParameterValue>: Sendable {
    public private(set) var spec: ParameterSpec
    /// The default (nil for a required parameter).
    let fallback: Value?

    /// A parameter with a default (for an optional `Value`, the default may be nil: absent).
    public init(_ name: String, type: ParamType? = nil, default value: Value, min: Double? = nil, max: Double? = nil,
                minExclusive: Bool = false, safeMax: Double? = nil, summary: String) {
        spec = ParameterSpec(name, type ?? Value.parameterType, default: value.parameterValue, min: min, max: max,
                             minExclusive: minExclusive, values: Value.allowedValues, safeMax: safeMax, summary: summary)
        fallback = value
    }

    /// A parameter the manifest must give.
    public init(required name: String, type: ParamType? = nil, min: Double? = nil, max: Double? = nil,
                minExclusive: Bool = false, safeMax: Double? = nil, summary: String) {
        spec = ParameterSpec(name, type ?? Value.parameterType, required: true, min: min, max: max,
                             minExclusive: minExclusive, values: Value.allowedValues, safeMax: safeMax, summary: summary)
        fallback = nil
    }

    public var name: String { spec.name }

    /// The same parameter, declared to name a file the stage reads when `file` finds one in a value
    /// (`ParameterSpec.namedFile`): a font given by family or by file.
    public func namingFiles(_ file: @escaping @Sendable (String) -> String?) -> Parameter {
        var copy = self
        copy.spec.namedFile = file
        return copy
    }
}

extension Parameter {
    /// An optional parameter with no default: reads as nil when not given.
    public init<Wrapped>(_ name: String, type: ParamType? = nil, min: Double? = nil, max: Double? = nil,
                         minExclusive: Bool = false, summary: String) where Value == Wrapped? {
        self.init(name, type: type, default: nil, min: min, max: max, minExclusive: minExclusive, summary: summary)
    }
}

extension Parameters {
    /// The typed value of a declared parameter: the given value, else its default. Throws only if
    /// the parameters were not checked against the descriptor that declares `key`.
    public subscript<V>(_ key: Parameter<V>) -> V {
        get throws(StageError) {
            if let raw = self[key.spec.name] {
                guard let value = V(parameterValue: raw) else {
                    throw StageError.invalidParameter(key.spec.name, "expected \(key.spec.type.expectation), got \(raw)")
                }
                return value
            }
            guard let value = key.fallback else {
                throw StageError.invalidParameter(key.spec.name, "required parameter is missing")
            }
            return value
        }
    }
}

