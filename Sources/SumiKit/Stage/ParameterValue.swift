/// A Swift type a stage parameter can be read as: its manifest type and the conversion from the
/// checked `ParamValue`. One small protocol, as `ExpressibleByArgument` is in swift-argument-parser.
public protocol ParameterValue: Sendable {
    /// The manifest type (`integer`, `size`, `"auto"|integer`, ...).
    static var parameterType: ParamType { get }
    /// The values a string parameter may take (`nil`: any).
    static var allowedValues: [String]? { get }
    init?(parameterValue: ParamValue)
    /// The value as a default in a descriptor (`nil` for an absent optional).
    var parameterValue: ParamValue? { get }
}

extension ParameterValue {
    public static var allowedValues: [String]? { nil }
}

/// A parameter read as the checked value itself, for a stage that interprets a value of several
/// shapes on its own (`text`'s `padding`: a number or "t,r,b,l"); declare the type with `type:`.
extension ParamValue: ParameterValue {
    public static var parameterType: ParamType { .string }
    public init?(parameterValue: ParamValue) { self = parameterValue }
    public var parameterValue: ParamValue? { self }
}

/// A string parameter with a fixed set of words, declared once by the cases of an enum.
///
/// ```swift
/// enum Fit: String, ParameterChoice { case contain, cover, fill }
/// ```
public protocol ParameterChoice: ParameterValue, RawRepresentable<String>, CaseIterable {}

extension ParameterChoice {
    public static var parameterType: ParamType { .string }
    public static var allowedValues: [String]? { allCases.map(\.rawValue) }
    public init?(parameterValue: ParamValue) {
        guard case .string(let s) = parameterValue else { return nil }
        self.init(rawValue: s)
    }
    public var parameterValue: ParamValue? { .string(rawValue) }
}

extension Int: ParameterValue {
    public static var parameterType: ParamType { .integer }
    public init?(parameterValue: ParamValue) {
        switch parameterValue {
        case .integer(let i): self = i
        case .number(let n): guard let i = Int(exactly: n) else { return nil }; self = i
        default: return nil
        }
    }
    public var parameterValue: ParamValue? { .integer(self) }
}

extension Double: ParameterValue {
    public static var parameterType: ParamType { .number }
    public init?(parameterValue: ParamValue) {
        guard let n = parameterValue.numberValue else { return nil }
        self = n
    }
    public var parameterValue: ParamValue? { .number(self) }
}

extension Bool: ParameterValue {
    public static var parameterType: ParamType { .bool }
    public init?(parameterValue: ParamValue) {
        guard case .bool(let b) = parameterValue else { return nil }
        self = b
    }
    public var parameterValue: ParamValue? { .bool(self) }
}

extension String: ParameterValue {
    public static var parameterType: ParamType { .string }
    public init?(parameterValue: ParamValue) {
        switch parameterValue {
        case .string(let s), .path(let s): self = s
        default: return nil
        }
    }
    public var parameterValue: ParamValue? { .string(self) }
}

extension Color: ParameterValue {
    public static var parameterType: ParamType { .color }
    public init?(parameterValue: ParamValue) {
        guard case .color(let c) = parameterValue else { return nil }
        self = c
    }
    public var parameterValue: ParamValue? { .color(self) }
}

extension Size: ParameterValue {
    public static var parameterType: ParamType { .size }
    public init?(parameterValue: ParamValue) {
        guard case .size(let s) = parameterValue else { return nil }
        self = s
    }
    public var parameterValue: ParamValue? { .size(self) }
}

extension Point: ParameterValue {
    public static var parameterType: ParamType { .point }
    public init?(parameterValue: ParamValue) {
        guard case .point(let p) = parameterValue else { return nil }
        self = p
    }
    public var parameterValue: ParamValue? { .point(self) }
}

extension Rect: ParameterValue {
    public static var parameterType: ParamType { .rect }
    public init?(parameterValue: ParamValue) {
        guard case .rect(let r) = parameterValue else { return nil }
        self = r
    }
    public var parameterValue: ParamValue? { .rect(self) }
}

extension Array: ParameterValue where Element: ParameterValue {
    public static var parameterType: ParamType { .list(Element.parameterType) }
    public static var allowedValues: [String]? { Element.allowedValues }
    /// A single value reads as a list of one.
    public init?(parameterValue: ParamValue) {
        let items: [ParamValue]
        if case .list(let list) = parameterValue { items = list } else { items = [parameterValue] }
        var result: [Element] = []
        for item in items {
            guard let element = Element(parameterValue: item) else { return nil }
            result.append(element)
        }
        self = result
    }
    public var parameterValue: ParamValue? { .list(compactMap(\.parameterValue)) }
}

extension Optional: ParameterValue where Wrapped: ParameterValue {
    public static var parameterType: ParamType { Wrapped.parameterType }
    public static var allowedValues: [String]? { Wrapped.allowedValues }
    public init?(parameterValue: ParamValue) {
        guard let value = Wrapped(parameterValue: parameterValue) else { return nil }
        self = .some(value)
    }
    public var parameterValue: ParamValue? { self?.parameterValue }
}

/// A keyword (`"auto"` by default) or a value: `"auto"|integer` in `sumi inspect`.
public enum AutoOr<Wrapped: ParameterValue & Equatable>: ParameterValue, Equatable {
    case auto
    case value(Wrapped)

    public static var parameterType: ParamType { .either([.keyword("auto"), Wrapped.parameterType]) }
    public init?(parameterValue: ParamValue) {
        if case .string("auto") = parameterValue { self = .auto; return }
        guard let value = Wrapped(parameterValue: parameterValue) else { return nil }
        self = .value(value)
    }
    public var parameterValue: ParamValue? {
        switch self {
        case .auto: .string("auto")
        case .value(let v): v.parameterValue
        }
    }
}
