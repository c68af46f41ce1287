import SumiKit

/// `${name}` references: a whole-string reference takes the parameter's typed value; a reference
/// inside a longer string interpolates its text. `${here}` is the manifest's folder.
public enum Substitution {
    /// Why a value could not be substituted.
    public enum Failure: Error, Sendable {
        /// A reference that names no declared parameter.
        case undeclared(name: String)
        /// The substituted values would add more than `maxLength` bytes to one stage parameter.
        case tooLong
    }

    /// The most that substituted values may add to one stage parameter (the size limit of a manifest
    /// file): many references to a long value must not grow without bound.
    public static let maxLength = 16 << 20

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_"
        }
    }

    /// Replaces `${here}` in a string.
    static func replacingHere(_ text: String, here: String) -> String {
        guard text.contains("${here}") else { return text }
        var out = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: "${here}") {
            out += rest[..<range.lowerBound]
            out += here
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// Replaces `${here}` in every string of a JSON value.
    static func replacingHere(in json: JSONValue, here: String) -> JSONValue {
        switch json {
        case .string(let s): .string(replacingHere(s, here: here))
        case .array(let items): .array(items.map { replacingHere(in: $0, here: here) })
        default: json
        }
    }

    /// Substitutes references in a stage parameter's JSON value.
    public static func substitute(_ json: JSONValue, values: [String: ParamValue], here: String) throws(Failure) -> JSONValue {
        var budget = maxLength
        return try substitute(json, values: values, here: here, budget: &budget)
    }

    /// `budget` is what substituted values may still add, in bytes, across the whole value.
    static func substitute(_ json: JSONValue, values: [String: ParamValue], here: String,
                           budget: inout Int) throws(Failure) -> JSONValue {
        switch json {
        case .string(let text):
            return try substitute(text, values: values, here: here, budget: &budget)
        case .array(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try substitute(item, values: values, here: here, budget: &budget)) }
            return .array(out)
        case .object(let members):
            var out: [(String, JSONValue)] = []
            for (k, v) in members { out.append((k, try substitute(v, values: values, here: here, budget: &budget))) }
            return .object(out)
        default:
            return json
        }
    }

    static func substitute(_ text: String, values: [String: ParamValue], here: String,
                           budget: inout Int) throws(Failure) -> JSONValue {
        guard text.contains("${") else { return .string(text) }
        func spend(_ text: String) throws(Failure) {
            budget -= text.utf8.count
            guard budget >= 0 else { throw .tooLong }
        }
        // Whole-string reference: the typed value.
        if text.hasPrefix("${"), text.hasSuffix("}"), text.dropFirst(2).dropLast().allSatisfy({ $0 != "}" && $0 != "$" }) {
            let name = String(text.dropFirst(2).dropLast())
            if name == "here" { return .string(here) }
            guard let value = values[name] else { throw .undeclared(name: name) }
            try spend(value.description)
            return value.json
        }
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
            out += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            guard let close = after.firstIndex(of: "}") else { out += rest[start.lowerBound...]; rest = ""; break }
            let name = String(after[..<close])
            if name == "here" { out += here }
            else if let value = values[name] {
                let text = value.description
                try spend(text)
                out += text
            }
            else { throw .undeclared(name: name) }
            rest = after[after.index(after: close)...]
        }
        return .string(out + rest)
    }

    /// The names referenced in a JSON value (for validation without values).
    public static func references(in json: JSONValue) -> [String] {
        switch json {
        case .string(let text):
            var names: [String] = []
            var rest = Substring(text)
            while let start = rest.firstRange(of: "${") {
                let after = rest[start.upperBound...]
                guard let close = after.firstIndex(of: "}") else { break }
                names.append(String(after[..<close]))
                rest = after[after.index(after: close)...]
            }
            return names
        case .array(let items): return items.flatMap(references)
        case .object(let members): return members.flatMap { references(in: $0.1) }
        default: return []
        }
    }
}
