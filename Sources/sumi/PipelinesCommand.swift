import SumiApp
import SumiEngine
import SumiKit

/// `sumi pipelines [NAME]`: the pipelines `sumi run NAME` finds (`InstalledPipelines`), each with
/// its summary, file and declared parameters. A manifest that cannot be read is listed with why.
struct PipelinesCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        var entries = InstalledPipelines.all()
        if let name = arguments.target {
            let wanted = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
            guard let entry = entries.first(where: { $0.name == wanted }) else {
                let names = entries.map(\.name)
                throw SumiError.usage("no pipeline \"\(MessageText.cut(name))\"\(NameSuggestion.hint(wanted, in: names)) "
                    + "(pipelines: \(names.isEmpty ? "none found" : names.joined(separator: ", ")))")
            }
            entries = [entry]
        }
        let loaded = entries.map { entry -> (entry: InstalledPipelines.Entry, manifest: Result<Manifest, SumiError>) in
            do throws(SumiError) { return (entry, .success(try ManifestLoader.load(path: entry.path))) } catch { return (entry, .failure(error)) }
        }
        if arguments.json {
            Terminal.standardOutput(JSONValue.array(loaded.map(Self.json)).serialized() + "\n")
            return 0
        }
        if loaded.isEmpty {
            let folders = InstalledPipelines.folders.map(\.path).joined(separator: ", ")
            Terminal.standardOutput("no pipelines found (looked in: \(folders.isEmpty ? "no folder" : folders))\n")
            return 0
        }
        Terminal.standardOutput(Terminal.printable(loaded.map(Self.text).joined(separator: "\n")))
        return 0
    }

    /// One pipeline as `sumi pipelines` prints it.
    static func text(_ item: (entry: InstalledPipelines.Entry, manifest: Result<Manifest, SumiError>)) -> String {
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
                text += "    \(param.name.padded(to: width + 1)) [\(facts.joined(separator: ", "))]"
                    + (param.summary.map { " \($0)" } ?? "") + "\n"
            }
            return text
        }
    }

    static func json(_ item: (entry: InstalledPipelines.Entry, manifest: Result<Manifest, SumiError>)) -> JSONValue {
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
