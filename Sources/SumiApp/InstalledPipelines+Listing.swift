import SumiEngine
import SumiKit

/// `sumi pipelines [NAME] [--json]`: the pipelines `sumi run NAME` finds, each with its summary,
/// file and declared parameters; a manifest that cannot be read is listed with why.
extension InstalledPipelines {
    /// The listing of every pipeline, or of the one `name` names, as text or JSON.
    package static func listing(named name: String?, json: Bool) throws(SumiError) -> String {
        var entries = all()
        if let name { entries = [try entry(named: name, in: entries, what: { "no pipeline \"\($0)\"" })] }
        let loaded = entries.map { entry -> Loaded in
            do throws(SumiError) { return (entry, .success(try ManifestLoader.load(path: entry.path))) } catch { return (entry, .failure(error)) }
        }
        if json { return JSONValue.array(loaded.map(Self.json)).serialized() + "\n" }
        if loaded.isEmpty {
            let searched = folders.map(\.path).joined(separator: ", ")
            return "no pipelines found (looked in: \(searched.isEmpty ? "no folder" : searched))\n"
        }
        return Terminal.printable(loaded.map(Self.text).joined(separator: "\n"))
    }

    typealias Loaded = (entry: Entry, manifest: Result<Manifest, SumiError>)

    /// One pipeline as `sumi pipelines` prints it.
    static func text(_ item: Loaded) -> String {
        let origin = item.entry.shipped ? "shipped" : "yours"
        switch item.manifest {
        case .failure(let error):
            return "\(item.entry.name)  (\(origin), \(item.entry.path))\n  cannot be read: \(error.description)\n"
        case .success(let manifest):
            var text = "\(item.entry.name)" + (manifest.summary.map { " — \($0)" } ?? "") + "\n"
            text += "  file: \(item.entry.path) (\(origin))\n"
            guard !manifest.params.isEmpty else { return text + "  parameters: none\n" }
            text += "  parameters (--set NAME=VALUE; input is -i, output is -o):\n"
            let width = manifest.params.map(\.name.count).max() ?? 0
            for param in manifest.params {
                var facts = [param.type.description]
                if let value = param.defaultValue {
                    facts.append("default " + (value.description.isEmpty ? "\"\"" : value.description))
                } else {
                    facts.append("required")
                }
                text += "    \(param.name + String(repeating: " ", count: max(1, width + 1 - param.name.count))) [\(facts.joined(separator: ", "))]"
                    + (param.summary.map { " \($0)" } ?? "") + "\n"
            }
            return text
        }
    }

    static func json(_ item: Loaded) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(item.entry.name)), ("path", .string(item.entry.path)),
                                              ("origin", .string(item.entry.shipped ? "shipped" : "user"))]
        switch item.manifest {
        case .failure(let error):
            members.append(("error", .string(error.description)))
        case .success(let manifest):
            if let summary = manifest.summary { members.append(("summary", .string(summary))) }
            members.append(("parameters", .array(manifest.params.map { param in
                var p: [(String, JSONValue)] = [("name", .string(param.name)), ("type", .string(param.type.description))]
                if let value = param.defaultValue { p.append(("default", value.json)) }
                if let summary = param.summary { p.append(("summary", .string(summary))) }
                return .object(p)
            })))
        }
        return .object(members)
    }
}
