/// A stage's checked parameters: every declared parameter with a value (given or default) is present
/// and has its declared type; numeric ranges and enumerations hold.
public struct Parameters: Sendable {
    public private(set) var values: [String: ParamValue]
    /// The names the manifest gave explicitly (not filled from defaults).
    public private(set) var given: Set<String>

    public init(_ values: [String: ParamValue], given: Set<String>? = nil) {
        self.values = values
        self.given = given ?? Set(values.keys)
    }

    public subscript(name: String) -> ParamValue? { values[name] }

    /// Whether the manifest gave `key` explicitly (not filled from its default).
    public func isGiven<V>(_ key: Parameter<V>) -> Bool { given.contains(key.name) }

    /// Whether the manifest gave the parameter named `name` (the plugin host's `param_given`).
    package func isGiven(_ name: String) -> Bool { given.contains(name) }

    public func string(_ name: String) -> String? {
        switch values[name] {
        case .string(let s)?, .path(let s)?: s
        case let v?: v.description
        case nil: nil
        }
    }
    public func number(_ name: String) -> Double? { values[name]?.numberValue }
    public func integer(_ name: String) -> Int? {
        guard let n = number(name) else { return nil }
        return Int(exactly: n.rounded())
    }
    public func bool(_ name: String) -> Bool? { if case .bool(let b)? = values[name] { b } else { nil } }
    public func color(_ name: String) -> Color? { if case .color(let c)? = values[name] { c } else { nil } }
    public func size(_ name: String) -> Size? { if case .size(let s)? = values[name] { s } else { nil } }
    public func point(_ name: String) -> Point? { if case .point(let p)? = values[name] { p } else { nil } }
    public func rect(_ name: String) -> Rect? { if case .rect(let r)? = values[name] { r } else { nil } }
    /// A list parameter (a single value reads as a one-element list).
    public func list(_ name: String) -> [ParamValue]? {
        switch values[name] {
        case .list(let items)?: items
        case let v?: [v]
        case nil: nil
        }
    }
    /// A `path` or `paths` parameter as a list of paths.
    public func paths(_ name: String) -> [String]? { list(name)?.map(\.description) }
}
