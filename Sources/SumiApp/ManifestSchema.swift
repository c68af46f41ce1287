import SumiEngine
import SumiKit

/// A JSON Schema (draft 2020-12) of manifests, with every registered stage's parameters generated
/// from its descriptor (`sumi schema`; `sumi serve`'s pipeline descriptions use `withSchema`).
package enum ManifestSchema {
    package static func schema(_ stages: [StageDescriptor]) -> JSONValue {
        let names = stages.map { JSONValue.string($0.name) }
        let idSchema: JSONValue = .object([("type", .string("string")), ("pattern", .string("^[A-Za-z0-9_-]+$"))])
        let from: JSONValue = .object([
            ("description", .string("where the inputs come from: a stage id, a list of ids, or port → id; absent: the previous stage")),
            ("anyOf", .array([idSchema, .object([("type", .string("array")), ("items", idSchema), ("minItems", .number(1))]),
                              .object([("type", .string("object")), ("additionalProperties", idSchema)])])),
        ])
        let rules: [JSONValue] = stages.map { d in
            .object([
                ("if", .object([("properties", .object([("stage", .object([("const", .string(d.name))]))])), ("required", .array([.string("stage")]))])),
                ("then", .object([("properties", .object([("with", withSchema(d))]))])),
            ])
        }
        let stage: JSONValue = .object([
            ("type", .string("object")),
            ("required", .array([.string("stage")])),
            ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("id", idSchema),
                ("stage", .object([("description", .string("the stage name (sumi stages)")), ("enum", .array(names))])),
                ("from", from),
                ("with", .object([("type", .string("object")), ("description", .string("the stage's parameters"))])),
            ])),
            ("allOf", .array(rules)),
        ])
        let typeNames = ["string", "number", "integer", "bool", "path", "paths", "color", "size", "point", "rect"]
        let param: JSONValue = .object([
            ("type", .string("object")),
            ("required", .array([.string("type")])),
            ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("type", .object([("description", .string("string, number, integer, bool, path, paths, color, size, point, rect, list<T> or T|U")),
                                  ("anyOf", .array([.object([("enum", .array(typeNames.map { .string($0) }))]),
                                                    .object([("type", .string("string")), ("pattern", .string("^(list<.+>|.+\\|.+)$"))])]))])),
                ("default", .object([("description", .string("the value when none is given; without it the parameter is required"))])),
                ("summary", .object([("type", .string("string"))])),
            ])),
        ])
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://sumi.invalid/schema/manifest-1.json")),
            ("title", .string("Sumi pipeline manifest")),
            ("type", .string("object")),
            ("required", .array([.string("sumi"), .string("stages")])),
            ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("$schema", .object([("type", .string("string"))])),
                ("sumi", .object([("const", .number(1)), ("description", .string("the manifest format version"))])),
                ("name", .object([("type", .string("string")), ("minLength", .number(1))])),
                ("summary", .object([("type", .string("string"))])),
                ("params", .object([("type", .string("object")), ("propertyNames", idSchema), ("additionalProperties", param)])),
                ("stages", .object([("type", .string("array")), ("minItems", .number(1)), ("items", stage)])),
                ("plugins", .object([("type", .string("array")), ("items", .object([("type", .string("string"))]))])),
            ])),
        ])
    }

    /// The `with` object of one stage: each parameter's schema, required ones, nothing else.
    package static func withSchema(_ d: StageDescriptor) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string("object")), ("additionalProperties", .bool(false))]
        members.append(("properties", .object(d.parameters.map { ($0.name, parameterSchema($0)) })))
        let required = d.parameters.filter(\.required).map { JSONValue.string($0.name) }
        if !required.isEmpty { members.append(("required", .array(required))) }
        return .object(members)
    }

    package static func parameterSchema(_ spec: ParameterSpec) -> JSONValue {
        var members: [(String, JSONValue)] = [("description", .string(spec.summary))]
        if let d = spec.defaultValue { members.append(("default", d.json)) }
        members.append(("anyOf", .array(typeSchemas(spec.type, spec: spec) + [reference])))
        return .object(members)
    }

    /// A `${name}` reference is accepted wherever a value is.
    package static let reference: JSONValue = .object([("type", .string("string")), ("pattern", .string("\\$\\{[A-Za-z0-9_-]+\\}"))])

    package static func typeSchemas(_ type: ParamType, spec: ParameterSpec) -> [JSONValue] {
        func numbers(_ count: Int) -> JSONValue {
            .object([("type", .string("array")), ("items", .object([("type", .string("number"))])),
                     ("minItems", .number(Double(count))), ("maxItems", .number(Double(count)))])
        }
        func pattern(_ p: String) -> JSONValue { .object([("type", .string("string")), ("pattern", .string(p))]) }
        let number = "-?[0-9]+(\\.[0-9]+)?"
        switch type {
        case .string:
            if let values = spec.values { return [.object([("enum", .array(values.map { .string($0) }))])] }
            return [.object([("type", .string("string"))])]
        case .number, .integer:
            var m: [(String, JSONValue)] = [("type", .string(type == .integer ? "integer" : "number"))]
            if let lo = spec.min { m.append((spec.minExclusive ? "exclusiveMinimum" : "minimum", .number(lo))) }
            if let hi = spec.max { m.append(("maximum", .number(hi))) }
            return [.object(m)]
        case .bool: return [.object([("type", .string("boolean"))])]
        case .path: return [.object([("type", .string("string")), ("minLength", .number(1))])]
        case .color: return [.object([("type", .string("string")), ("description", .string("#rgb, #rrggbb, #rrggbbaa, a CSS name, rgb() or rgba()"))])]
        case .size: return [pattern("^\\s*\(number)\\s*[xX]\\s*\(number)\\s*$"), numbers(2)]
        case .point: return [pattern("^\\s*\(number)\\s*,\\s*\(number)\\s*$"), numbers(2)]
        case .rect: return [pattern("^\\s*\(number)(\\s*,\\s*\(number)){3}\\s*$"), numbers(4)]
        case .list(let element):
            let items = typeSchemas(element, spec: spec) + [reference]
            return [.object([("type", .string("array")), ("items", .object([("anyOf", .array(items))]))])] + typeSchemas(element, spec: spec)
                + [.object([("type", .string("string"))])]
        case .either(let types): return types.flatMap { typeSchemas($0, spec: spec) }
        case .keyword(let word): return [.object([("const", .string(word))])]
        case .tagged(let prefix, let inner):
            let escaped = prefix.unicodeScalars.map { "\\^$.|?*+()[]{}".unicodeScalars.contains($0) ? "\\\($0)" : "\($0)" }.joined()
            let rest: String
            switch inner {
            case .integer: rest = "-?[0-9]+"
            case .number: rest = number
            default: rest = ".+"
            }
            return [pattern("^\\s*\(escaped)\\s*\(rest)\\s*$")]
        }
    }
}
