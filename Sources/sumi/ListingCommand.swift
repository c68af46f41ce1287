import SumiEngine
import SumiKit

/// `sumi stages` and `sumi inspect`.
struct ListingCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths)
        if arguments.command == .stages {
            if arguments.json {
                let stages = registry.all.map { definition -> JSONValue in
                    guard case .object(var members) = definition.json,
                          let library = PluginLoader.library(at: definition.origin) else { return definition.json }
                    members.append(("plugin", .object([("name", .string(library.name)), ("version", .string(library.version)),
                                                       ("licence", .string(library.licence)),
                                                       ("description", .string(library.description)),
                                                       ("abi", .number(Double(library.abiVersion)))])))
                    return .object(members)
                }
                let broken = registry.brokenLibraries.map { JSONValue.object([("broken", .string($0.path)), ("reason", .string($0.reason))]) }
                Terminal.standardOutput(JSONValue.array(stages + broken).serialized() + "\n")
            } else {
                let factories = registry.all
                let width = factories.map(\.descriptor.name.count).max() ?? 0
                var text = ""
                for f in factories {
                    let pad = String(repeating: " ", count: width - f.descriptor.name.count)
                    var origin = ""
                    if f.origin != "builtin" {
                        let library = PluginLoader.library(at: f.origin).map { "\($0.name) \($0.version), " } ?? ""
                        origin = "  [\(library)\(f.origin)]"
                    }
                    text += "\(f.descriptor.name)\(pad)  \(f.descriptor.summary)\(origin)\n"
                }
                for broken in registry.brokenLibraries {
                    text += "broken plugin  \(broken.path): \(broken.reason)\n"
                }
                Terminal.standardOutput(text)
            }
            return 0
        }
        let name = arguments.target ?? ""
        guard let factory = registry.factory(named: name) else {
            let names = registry.all.map(\.descriptor.name)
            throw SumiError.usage("unknown stage \"\(name)\"\(NameSuggestion.hint(name, in: names)) (known stages: \(names.joined(separator: ", ")))")
        }
        if arguments.json {
            Terminal.standardOutput(factory.json.serialized() + "\n")
        } else {
            Terminal.standardOutput(Self.describe(factory))
        }
        return 0
    }

    /// The human-readable description `sumi inspect` prints.
    static func describe(_ factory: StageDefinition) -> String {
        let d = factory.descriptor
        var text = "\(d.name) — \(d.summary)\n"
        text += "  origin:  \(factory.origin)\n"
        if let library = PluginLoader.library(at: factory.origin) {
            let facts = [library.licence.isEmpty ? nil : "licence \(library.licence)", "plugin ABI \(library.abiVersion)",
                         library.bandStages.contains(d.name) ? "band callbacks: streams" : nil].compactMap { $0 }
            text += "  plugin:  \(library.name) \(library.version) (\(facts.joined(separator: ", ")))"
                + (library.description.isEmpty ? "" : " — \(library.description)") + "\n"
        }
        text += "  inputs:  " + (d.inputs.isEmpty ? "none" : d.inputs.map { "\($0.name) (\($0.typeName))" }.joined(separator: ", ")) + "\n"
        text += "  output:  \(d.output.rawValue)\(d.listOutputParameter.map { " (images when \($0) is a list)" } ?? "")\n"
        text += "  effect:  \(d.effect.rawValue)\n"
        guard !d.parameters.isEmpty else { return text + "  parameters: none\n" }
        text += "  parameters:\n"
        for p in d.parameters {
            var facts = [p.type.description]
            if p.required { facts.append("required") }
            if let v = p.defaultValue { facts.append("default \(v.description.isEmpty ? "\"\"" : v.description)") }
            if let lo = p.min { facts.append("\(p.minExclusive ? ">" : ">=") \(formatNumber(lo))") }
            if let hi = p.max { facts.append("<= \(formatNumber(hi))") }
            if let values = p.values { facts.append("one of " + values.joined(separator: "|")) }
            text += "    \(p.name)  [\(facts.joined(separator: ", "))]\n        \(p.summary)\n"
        }
        return text
    }
}
