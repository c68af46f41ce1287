/// The type of a manifest or stage parameter. One small parser per type turns text or JSON into a
/// `ParamValue`; `either` accepts the first alternative that parses (so `rect|string` takes a
/// rectangle or any other text for the stage to interpret).
public indirect enum ParamType: Sendable, Hashable, CustomStringConvertible {
    case string, number, integer, bool, color, size, point, rect
    /// A file, and which way it goes (as libvips flags every argument INPUT or OUTPUT): `--safe`
    /// confines reads to the inputs and writes to the output folder by this declaration alone.
    case path(PathAccess)
    case list(ParamType)
    case either([ParamType])
    /// Exactly this word (`"auto"`), as one alternative of `either`.
    case keyword(String)
    /// This text followed by a value of the type (`"capture:" integer` for `capture:2`).
    case tagged(String, ParamType)

    /// A list of files whose direction is not declared.
    public static let paths = ParamType.list(.path(.undeclared))

    /// A list of files going `access`'s way.
    public static func paths(_ access: PathAccess) -> ParamType { .list(.path(access)) }

    /// Whether the type is one file (whichever way it goes).
    public var isPath: Bool {
        if case .path = self { true } else { false }
    }

    /// The direction of the files this type names (the first path in it), nil when it names none.
    public var pathAccess: PathAccess? {
        switch self {
        case .path(let access): access
        case .list(let element), .tagged(_, let element): element.pathAccess
        case .either(let types): types.lazy.compactMap(\.pathAccess).first
        default: nil
        }
    }

    /// This type with every path in it going `access`'s way.
    public func withPathAccess(_ access: PathAccess) -> ParamType {
        switch self {
        case .path: .path(access)
        case .list(let element): .list(element.withPathAccess(access))
        case .tagged(let prefix, let element): .tagged(prefix, element.withPathAccess(access))
        case .either(let types): .either(types.map { $0.withPathAccess(access) })
        default: self
        }
    }

    public var description: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .integer: "integer"
        case .bool: "bool"
        case .path: "path"
        case .color: "color"
        case .size: "size"
        case .point: "point"
        case .rect: "rect"
        case .list(.path): "paths"
        case .list(let element): "list<\(element)>"
        case .either(let types): types.map(\.description).joined(separator: "|")
        case .keyword(let word): "\"\(word)\""
        case .tagged(let prefix, let type): "\"\(prefix)\"\(type)"
        }
    }

    /// Parses a type name as written in a manifest (`"size"`, `"paths"`, `"list<number>"`,
    /// `"rect|string"`).
    public init?(name: String) {
        // Real type names are short; a long one is refused before it is taken apart level by level.
        guard name.utf8.count <= 256 else { return nil }
        let name = name.trimmingWhitespace()
        if name.hasPrefix("\""), !name.contains("|") {
            // "word" or "prefix"type
            let rest = name.dropFirst()
            guard let close = rest.firstIndex(of: "\"") else { return nil }
            let word = String(rest[..<close])
            let after = String(rest[rest.index(after: close)...]).trimmingWhitespace()
            guard !word.isEmpty else { return nil }
            if after.isEmpty { self = .keyword(word); return }
            guard let type = ParamType(name: after) else { return nil }
            self = .tagged(word, type)
            return
        }
        if name.contains("|") {
            var alternatives: [ParamType] = []
            for part in name.split(separator: "|", omittingEmptySubsequences: false) {
                guard let t = ParamType(name: String(part)) else { return nil }
                alternatives.append(t)
            }
            self = .either(alternatives)
            return
        }
        if name.hasPrefix("list<"), name.hasSuffix(">") {
            guard let element = ParamType(name: String(name.dropFirst(5).dropLast())) else { return nil }
            self = .list(element)
            return
        }
        switch name {
        case "string": self = .string
        case "number": self = .number
        case "integer": self = .integer
        case "bool": self = .bool
        case "path": self = .path(.undeclared)
        case "paths": self = .paths
        case "color": self = .color
        case "size": self = .size
        case "point": self = .point
        case "rect": self = .rect
        default: return nil
        }
    }

    /// A short phrase for error messages: "expected a size (\"WxH\" or [W, H])".
    public var expectation: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .integer: "an integer"
        case .bool: "true or false"
        case .path: "a file path"
        case .color: "a colour (#rgb, #rrggbb, #rrggbbaa, a CSS name, rgb() or rgba())"
        case .size: "a size (\"WxH\" or [W, H])"
        case .point: "a point (\"X,Y\" or [X, Y])"
        case .rect: "a rectangle (\"X,Y,W,H\" or [X, Y, W, H])"
        case .list(.path): "a list of file paths"
        case .list(let element): "a list of \(element)"
        case .either(let types): types.map(\.expectation).joined(separator: " or ")
        case .keyword(let word): "\"\(word)\""
        case .tagged(let prefix, let type): "\"\(prefix)\" followed by \(type.expectation)"
        }
    }
}
