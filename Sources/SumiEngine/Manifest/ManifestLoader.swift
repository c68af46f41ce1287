import SumiKit

/// Reads a manifest file: JSON syntax (with line and column), the format version, known keys only,
/// parameter declarations with parsed defaults, and the shape of each stage entry.
public enum ManifestLoader {
    /// `$schema` lets an editor check the manifest against `sumi schema`; it is otherwise ignored.
    static let topLevelKeys: Set<String> = ["$schema", "sumi", "name", "summary", "params", "stages", "plugins"]
    static let stageKeys: Set<String> = ["id", "stage", "from", "with"]
    static let paramKeys: Set<String> = ["type", "default", "summary"]

    /// Loads and checks the manifest at `path`.
    public static func load(path: String) throws(SumiError) -> Manifest {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: 16 << 20) } catch {
            throw SumiError.usage("cannot read manifest: \(error.message)")
        }
        return try parse(bytes, path: path)
    }

    /// Parses manifest bytes; `path` names the file in messages and sets `${here}`.
    public static func parse(_ bytes: [UInt8], path: String) throws(SumiError) -> Manifest {
        let file = FileIO.fileName(of: path)
        func fail(_ message: String, stage: String? = nil, parameter: String? = nil) -> SumiError {
            SumiError(.usage, file: file, stage: stage, parameter: parameter, message)
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw fail("invalid JSON at \(error.description)")
        }
        guard let top = json.objectValue else { throw fail("expected a JSON object at the top level, got \(json.typeName)") }
        for (key, _) in top where !topLevelKeys.contains(key) {
            throw fail("unknown key \"\(MessageText.cut(key))\" (known: \(topLevelKeys.sorted().joined(separator: ", ")))")
        }
        guard let version = json["sumi"] else { throw fail("missing \"sumi\": 1 (the manifest format version)") }
        guard version == .number(1) else {
            throw fail("unsupported manifest format version \(version.serialized()) (this sumi reads version 1)")
        }
        let here = FileIO.directory(of: path)
        var name = FileIO.stem(of: path)
        if let n = json["name"] {
            guard let s = n.stringValue, !s.isEmpty else { throw fail("\"name\" must be a non-empty string") }
            name = s
        }
        var summary: String?
        if let s = json["summary"] {
            guard let text = s.stringValue else { throw fail("\"summary\" must be a string") }
            summary = text
        }

        var params: [ManifestParameter] = []
        if let p = json["params"] {
            guard let members = p.objectValue else { throw fail("\"params\" must be an object of name → {type, default?, summary?}") }
            for (pname, spec) in members {
                params.append(try parseParameter(pname, spec, here: here, fail: fail))
            }
        }

        guard let stagesJSON = json["stages"] else { throw fail("missing \"stages\"") }
        guard let list = stagesJSON.arrayValue else { throw fail("\"stages\" must be an array") }
        guard !list.isEmpty else { throw fail("\"stages\" is empty") }
        var stages: [ManifestStage] = []
        for (index, entry) in list.enumerated() {
            stages.append(try parseStage(entry, index: index, fail: fail))
        }

        var plugins: [String] = []
        if let p = json["plugins"] {
            guard let items = p.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw fail("\"plugins\" must be a list of library paths")
            }
            plugins = items.compactMap(\.stringValue).map { Substitution.replacingHere($0, here: here) }
        }
        return Manifest(path: path, here: here, name: name, summary: summary, params: params,
                        stages: stages, plugins: plugins)
    }

    static func parseParameter(_ name: String, _ spec: JSONValue, here: String,
                               fail: (String, String?, String?) -> SumiError) throws(SumiError) -> ManifestParameter {
        let place = "params.\(MessageText.cut(name))"
        guard Substitution.isValidName(name) else {
            throw fail("parameter names use letters, digits, '-' and '_'", place, nil)
        }
        guard let members = spec.objectValue else { throw fail("expected {\"type\": ..., \"default\": ...}, got \(spec.shortDescription)", place, nil) }
        for (key, _) in members where !paramKeys.contains(key) {
            throw fail("unknown key \"\(MessageText.cut(key))\" (known: default, summary, type)", place, nil)
        }
        guard let typeName = spec["type"]?.stringValue else { throw fail("missing \"type\"", place, nil) }
        guard let type = ParamType(name: typeName) else {
            throw fail("unknown type \(JSONValue.string(typeName).shortDescription) (known: string, number, integer, bool, path, paths, color, size, point, rect, list<T>)", place, nil)
        }
        var summary: String?
        if let s = spec["summary"] {
            guard let text = s.stringValue else { throw fail("\"summary\" must be a string", place, nil) }
            summary = text
        }
        var defaultValue: ParamValue?
        if let d = spec["default"] {
            let substituted = Substitution.replacingHere(in: d, here: here)
            do { defaultValue = try type.parse(substituted) } catch {
                throw fail("default: expected \(error.expected), got \(error.found)", place, nil)
            }
        }
        return ManifestParameter(name: name, type: type, defaultValue: defaultValue, summary: summary)
    }

    static func parseStage(_ entry: JSONValue, index: Int,
                           fail: (String, String?, String?) -> SumiError) throws(SumiError) -> ManifestStage {
        var place = "stages[\(index)]"
        guard let members = entry.objectValue else { throw fail("expected an object, got \(entry.shortDescription)", place, nil) }
        guard let stageName = entry["stage"]?.stringValue else { throw fail("missing \"stage\" (the stage name)", place, nil) }
        var id: String?
        if let i = entry["id"] {
            guard let text = i.stringValue, Substitution.isValidName(text) else {
                throw fail("\"id\" must be a name of letters, digits, '-' and '_'", place, nil)
            }
            id = text
        }
        let shown = MessageText.cut(stageName)
        place = id.map { "stages[\(index)] \"\(MessageText.cut($0))\" (\(shown))" } ?? "stages[\(index)] (\(shown))"
        for (key, _) in members where !stageKeys.contains(key) {
            throw fail("unknown key \"\(MessageText.cut(key))\" (known: from, id, stage, with)", place, nil)
        }
        var from = StageSource.previous
        switch entry["from"] {
        case nil: break
        case .string(let s)?: from = .single(s)
        case .array(let items)?:
            let names = items.compactMap(\.stringValue)
            guard names.count == items.count, !names.isEmpty else {
                throw fail("\"from\" list must hold stage ids", place, nil)
            }
            from = .list(names)
        case .object(let ports)?:
            var mapping: [(String, String)] = []
            for (port, source) in ports {
                guard let s = source.stringValue else { throw fail("\"from\".\(port) must be a stage id", place, nil) }
                mapping.append((port, s))
            }
            from = .ports(mapping)
        case let other?:
            throw fail("\"from\" must be a stage id, a list of ids or an object of port → id, got \(other.shortDescription)", place, nil)
        }
        var with: [(String, JSONValue)] = []
        if let w = entry["with"] {
            guard let members = w.objectValue else { throw fail("\"with\" must be an object of parameters", place, nil) }
            with = members
        }
        return ManifestStage(index: index, id: id, stage: stageName, from: from, with: with)
    }
}
