/// Why a value did not parse as a type: what was expected and what was found.
public struct ParamTypeMismatch: Error, Sendable {
    public var expected: String
    public var found: String
}

extension ParamType {
    /// Parses a JSON value (a manifest literal, or a substituted parameter) as this type.
    public func parse(_ json: JSONValue) throws(ParamTypeMismatch) -> ParamValue {
        switch (self, json) {
        case (.either(let types), _):
            for type in types {
                if let value = try? type.parse(json) { return value }
            }
            throw ParamTypeMismatch(expected: expectation, found: json.shortDescription)
        case (.list(let element), .array(let items)):
            var values: [ParamValue] = []
            for item in items { values.append(try element.parse(item)) }
            return .list(values)
        case (.list(let element), .string(let text)) where !element.isStructured:
            // "0,2332,4664" or a single item.
            var values: [ParamValue] = []
            let parts = element.isPath ? [text] : text.split(separator: ",").map { String($0) }
            for part in parts { values.append(try element.parse(.string(part.trimmingWhitespace()))) }
            return .list(values)
        case (.list(let element), _):
            return .list([try element.parse(json)])
        case (.size, .array(let items)), (.point, .array(let items)), (.rect, .array(let items)):
            let numbers = items.compactMap(\.numberValue)
            guard numbers.count == items.count else { break }
            return try fromNumbers(numbers, found: json)
        case (.bool, .bool(let b)): return .bool(b)
        case (.number, .number(let n)): return .number(n)
        case (.integer, .number(let n)):
            guard n == n.rounded(), abs(n) < 9e15 else { break }
            return .integer(Int(n))
        case (_, .string(let text)): return try parse(text: text)
        default: break
        }
        throw ParamTypeMismatch(expected: expectation, found: json.shortDescription)
    }

    /// Parses text (a `--set` value, or a string in the manifest) as this type.
    public func parse(text: String) throws(ParamTypeMismatch) -> ParamValue {
        let found = JSONValue.string(text).shortDescription
        let t = text.trimmingWhitespace()
        switch self {
        case .string: return .string(text)
        case .path:
            guard !text.isEmpty else { break }
            return .path(text)
        case .number:
            guard let n = Double(t), n.isFinite else { break }
            return .number(n)
        case .integer:
            guard let i = Int(t) else { break }
            return .integer(i)
        case .bool:
            switch t.lowercased() {
            case "true", "yes", "1", "on": return .bool(true)
            case "false", "no", "0", "off": return .bool(false)
            default: break
            }
        case .color:
            guard let c = Color(parsing: t) else { break }
            return .color(c)
        case .size:
            let parts = t.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { Double($0.trimmingWhitespace()) }
            guard parts.count == 2, numbers.count == 2 else { break }
            return try fromNumbers(numbers, found: .string(text))
        case .point, .rect:
            let parts = t.split(separator: ",", omittingEmptySubsequences: false)
            let numbers = parts.compactMap { Double($0.trimmingWhitespace()) }
            guard numbers.count == parts.count else { break }
            return try fromNumbers(numbers, found: .string(text))
        case .list, .either:
            return try parse(.string(text))
        case .keyword(let word):
            guard t == word else { break }
            return .string(word)
        case .tagged(let prefix, let type):
            guard t.hasPrefix(prefix) else { break }
            let inner = try type.parse(text: String(t.dropFirst(prefix.count)))
            return .string(prefix + inner.description)
        }
        throw ParamTypeMismatch(expected: expectation, found: found)
    }

    private func fromNumbers(_ n: [Double], found: JSONValue) throws(ParamTypeMismatch) -> ParamValue {
        guard n.allSatisfy(\.isFinite) else { throw ParamTypeMismatch(expected: expectation, found: found.shortDescription) }
        switch (self, n.count) {
        case (.size, 2) where n[0] >= 0 && n[1] >= 0: return .size(Size(width: n[0], height: n[1]))
        case (.point, 2): return .point(Point(x: n[0], y: n[1]))
        case (.rect, 4) where n[2] >= 0 && n[3] >= 0: return .rect(Rect(x: n[0], y: n[1], width: n[2], height: n[3]))
        default: throw ParamTypeMismatch(expected: expectation, found: found.shortDescription)
        }
    }

    /// Types whose text form contains commas themselves.
    var isStructured: Bool {
        switch self {
        case .point, .rect, .list, .either, .string, .keyword, .tagged: true
        default: false
        }
    }
}
