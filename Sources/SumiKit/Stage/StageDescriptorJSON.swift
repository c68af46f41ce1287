/// A `StageDescriptor` as JSON, in the shape `sumi inspect STAGE --json` prints:
///
/// ```json
/// {"name": "pixelate", "summary": "...", "inputs": [{"name": "in", "type": "image"}], "output": "image",
///  "params": [{"name": "block", "type": "integer", "required": false, "default": 8, "summary": "...",
///              "min": 1, "max": null, "values": null}]}
/// ```
///
/// Plugin libraries describe their stages in this form across the C ABI; `"origin"` is added by
/// whoever knows it (the stage list), and `"minExclusive": true` marks an exclusive minimum.
public enum StageDescriptorJSON {
    /// A descriptor that did not decode: which field, and why.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// The descriptor as a JSON object; `origin`, if given, is placed after `summary`.
    public static func encode(_ descriptor: StageDescriptor, origin: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(descriptor.name)),
            ("summary", .string(descriptor.summary)),
        ]
        if let origin { members.append(("origin", .string(origin))) }
        members.append(("inputs", .array(descriptor.inputs.map { port in
            .object([("name", .string(port.name)), ("type", .string(port.typeName))])
        })))
        members.append(("output", .string(descriptor.output.rawValue)))
        if let list = descriptor.listOutputParameter { members.append(("list-output-when", .string(list))) }
        members.append(("effect", .string(descriptor.effect.rawValue)))
        members.append(("params", .array(descriptor.parameters.map(encode))))
        return .object(members)
    }

    static func encode(_ spec: ParameterSpec) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(spec.name)),
            ("type", .string(spec.type.description)),
            ("required", .bool(spec.required)),
            ("default", spec.defaultValue?.json ?? .null),
            ("summary", .string(spec.summary)),
            ("min", spec.min.map(JSONValue.number) ?? .null),
            ("max", spec.max.map(JSONValue.number) ?? .null),
            ("values", spec.values.map { .array($0.map(JSONValue.string)) } ?? .null),
        ]
        if spec.minExclusive { members.append(("minExclusive", .bool(true))) }
        if let access = spec.type.pathAccess, access != .undeclared { members.append(("access", .string(access.rawValue))) }
        if let safeMax = spec.safeMax { members.append(("safe-max", .number(safeMax))) }
        return .object(members)
    }

    /// Decodes a descriptor from JSON text.
    public static func decode(text: String) throws(Problem) -> StageDescriptor {
        let json: JSONValue
        do { json = try JSONParser.parse(text) } catch {
            throw Problem(message: "descriptor is not valid JSON (\(error))")
        }
        return try decode(json)
    }

    /// Decodes a descriptor from a JSON object.
    public static func decode(_ json: JSONValue) throws(Problem) -> StageDescriptor {
        guard json.objectValue != nil else { throw Problem(message: "descriptor must be a JSON object, got \(json.typeName)") }
        let name = try string(json, "name", in: "descriptor")
        let place = "stage \"\(name)\""
        let summary = try optionalString(json, "summary", in: place) ?? ""
        let outputName = try string(json, "output", in: place)
        guard let output = ValueKind(rawValue: outputName) else {
            throw Problem(message: "\(place): unknown output kind \"\(outputName)\"")
        }
        var inputs: [PortSpec] = []
        for port in try array(json, "inputs", in: place) {
            let portName = try string(port, "name", in: "\(place) input")
            let typeName = try string(port, "type", in: "\(place) input \"\(portName)\"")
            var kinds: [ValueKind] = []
            for part in typeName.split(separator: "|") {
                guard let kind = ValueKind(rawValue: String(part)) else {
                    throw Problem(message: "\(place) input \"\(portName)\": unknown value kind \"\(part)\"")
                }
                kinds.append(kind)
            }
            guard !kinds.isEmpty else { throw Problem(message: "\(place) input \"\(portName)\": empty type") }
            inputs.append(PortSpec(name: portName, accepts: kinds))
        }
        var parameters: [ParameterSpec] = []
        for param in try array(json, "params", in: place) {
            parameters.append(try decodeParameter(param, in: place))
        }
        var effect: ImageEffect?
        if let effectName = try optionalString(json, "effect", in: place) {
            guard let known = ImageEffect(rawValue: effectName) else {
                throw Problem(message: "\(place): unknown effect \"\(effectName)\" (expected \(ImageEffect.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            effect = known
        }
        let listOutput = try optionalString(json, "list-output-when", in: place)
        if let listOutput, !parameters.contains(where: { $0.name == listOutput }) {
            throw Problem(message: "\(place): \"list-output-when\" names \"\(listOutput)\", which is not one of its parameters")
        }
        return StageDescriptor(name: name, summary: summary, inputs: inputs, output: output,
                               listOutputParameter: listOutput, effect: effect, parameters: parameters)
    }

    static func decodeParameter(_ json: JSONValue, in stagePlace: String) throws(Problem) -> ParameterSpec {
        let name = try string(json, "name", in: "\(stagePlace) parameter")
        let place = "\(stagePlace) parameter \"\(name)\""
        let typeName = try string(json, "type", in: place)
        guard var type = ParamType(name: typeName) else { throw Problem(message: "\(place): unknown type \"\(typeName)\"") }
        if let accessName = try optionalString(json, "access", in: place) {
            guard let access = PathAccess(rawValue: accessName), access != .undeclared else {
                throw Problem(message: "\(place): \"access\" must be \"reads\" or \"writes\", got \"\(accessName)\"")
            }
            guard type.pathAccess != nil else {
                throw Problem(message: "\(place): \"access\" is for a type that names files (path, paths), not \(typeName)")
            }
            type = type.withPathAccess(access)
        }
        var defaultValue: ParamValue?
        if let raw = json["default"], raw != .null {
            do { defaultValue = try type.parse(raw) } catch {
                throw Problem(message: "\(place): default expected \(error.expected), got \(error.found)")
            }
        }
        let required = try optionalBool(json, "required", in: place) ?? false
        var values: [String]?
        if let raw = json["values"], raw != .null {
            let items = raw.arrayValue ?? []
            let strings = items.compactMap(\.stringValue)
            guard raw.arrayValue != nil, strings.count == items.count else {
                throw Problem(message: "\(place): \"values\" must be a list of strings")
            }
            values = strings
        }
        return ParameterSpec(name, type, default: defaultValue, required: required,
                             min: try optionalNumber(json, "min", in: place),
                             max: try optionalNumber(json, "max", in: place),
                             minExclusive: try optionalBool(json, "minExclusive", in: place) ?? false,
                             values: values, safeMax: try optionalNumber(json, "safe-max", in: place),
                             summary: try optionalString(json, "summary", in: place) ?? "")
    }

    private static func string(_ json: JSONValue, _ key: String, in place: String) throws(Problem) -> String {
        guard let value = try optionalString(json, key, in: place) else {
            throw Problem(message: "\(place): missing \"\(key)\"")
        }
        return value
    }

    private static func optionalString(_ json: JSONValue, _ key: String, in place: String) throws(Problem) -> String? {
        guard let raw = json[key], raw != .null else { return nil }
        guard let s = raw.stringValue else { throw Problem(message: "\(place): \"\(key)\" must be a string, got \(raw.typeName)") }
        return s
    }

    private static func optionalNumber(_ json: JSONValue, _ key: String, in place: String) throws(Problem) -> Double? {
        guard let raw = json[key], raw != .null else { return nil }
        guard let n = raw.numberValue else { throw Problem(message: "\(place): \"\(key)\" must be a number, got \(raw.typeName)") }
        return n
    }

    private static func optionalBool(_ json: JSONValue, _ key: String, in place: String) throws(Problem) -> Bool? {
        guard let raw = json[key], raw != .null else { return nil }
        guard let b = raw.boolValue else { throw Problem(message: "\(place): \"\(key)\" must be true or false, got \(raw.typeName)") }
        return b
    }

    private static func array(_ json: JSONValue, _ key: String, in place: String) throws(Problem) -> [JSONValue] {
        guard let raw = json[key], raw != .null else { return [] }
        guard let items = raw.arrayValue else { throw Problem(message: "\(place): \"\(key)\" must be a list, got \(raw.typeName)") }
        return items
    }
}
