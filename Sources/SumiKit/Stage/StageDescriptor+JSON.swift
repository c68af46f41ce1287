extension StageDescriptor {
    /// The descriptor as `sumi stages --json` prints it (and as plugins describe their stages).
    public func json(origin: String) -> JSONValue {
        .object([
            ("name", .string(name)),
            ("summary", .string(summary)),
            ("origin", .string(origin)),
            ("inputs", .array(inputs.map { .object([("name", .string($0.name)), ("type", .string($0.typeName))]) })),
            ("output", .string(output.rawValue)),
            ("params", .array(parameters.map(\.json))),
        ])
    }
}

extension ParameterSpec {
    /// The parameter as `sumi inspect --json` prints it.
    public var json: JSONValue {
        .object([
            ("name", .string(name)),
            ("type", .string(type.description)),
            ("required", .bool(required)),
            ("default", defaultValue?.json ?? .null),
            ("summary", .string(summary)),
            ("min", min.map { .number($0) } ?? .null),
            ("max", max.map { .number($0) } ?? .null),
            ("values", values.map { .array($0.map { .string($0) }) } ?? .null),
        ])
    }
}

extension StageFactory {
    /// The stage's entry in `sumi stages --json`.
    public var json: JSONValue { descriptor.json(origin: origin) }
}
