/// A parameter's typed value.
public enum ParamValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case path(String)
    case color(Color)
    case size(Size)
    case point(Point)
    case rect(Rect)
    case list([ParamValue])

    public var description: String {
        switch self {
        case .string(let s), .path(let s): s
        case .number(let n): formatNumber(n)
        case .integer(let i): String(i)
        case .bool(let b): String(b)
        case .color(let c): c.description
        case .size(let s): s.description
        case .point(let p): p.description
        case .rect(let r): r.description
        case .list(let items): items.map(\.description).joined(separator: ",")
        }
    }

    /// The value as JSON (for reports and `sumi inspect`).
    public var json: JSONValue {
        switch self {
        case .string(let s), .path(let s): .string(s)
        case .number(let n): .number(n)
        case .integer(let i): .number(Double(i))
        case .bool(let b): .bool(b)
        case .color(let c): .string(c.description)
        case .size(let s): .string(s.description)
        case .point(let p): .string(p.description)
        case .rect(let r): .string(r.description)
        case .list(let items): .array(items.map(\.json))
        }
    }

    /// The numeric value of a `number` or `integer`.
    public var numberValue: Double? {
        switch self {
        case .number(let n): n
        case .integer(let i): Double(i)
        default: nil
        }
    }
}
