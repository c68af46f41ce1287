import SumiApp
import SumiEngine
import SumiKit

/// `sumi stages` and `sumi inspect`.
struct ListingCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths, warn: { Terminal.warning($0) })
        if arguments.command == .stages {
            if arguments.json {
                Terminal.standardOutput(StageCatalog.listing(registry).serialized() + "\n")
            } else {
                let definitions = registry.all
                let width = definitions.map(\.descriptor.name.count).max() ?? 0
                var text = ""
                for f in definitions {
                    let pad = String(repeating: " ", count: width - f.descriptor.name.count)
                    var origin = ""
                    if f.origin != "builtin" {
                        let library = PluginLoader.library(at: f.origin).map { "\($0.name) \($0.version), " } ?? ""
                        origin = "  [\(library)\(f.origin)]"
                    }
                    text += "\(f.descriptor.name)\(pad)  \(f.descriptor.summary)\(origin)\n"
                }
                for format in registry.formats.pluginCodecs {
                    let library = PluginLoader.library(at: format.origin).map { "\($0.name) \($0.version), " } ?? ""
                    text += "format \(Self.describe(format))  [\(library)\(format.origin)]\n"
                }
                for broken in registry.brokenLibraries {
                    text += "broken plugin  \(broken.path): \(broken.reason)\n"
                }
                Terminal.standardOutput(text)
            }
            return 0
        }
        let name = arguments.target ?? ""
        guard let definition = registry.definition(named: name) else {
            if let format = registry.formats.pluginCodecs.first(where: { $0.name == name }) {
                throw SumiError.usage("\"\(name)\" is an image format of the plugin \(format.origin), not a stage: \(Self.describe(format)); "
                    + "the built-in decode reads it, encode writes it (format=\(name)); sumi formats lists every format")
            }
            let names = registry.all.map(\.descriptor.name)
            throw SumiError.usage("unknown stage \"\(name)\"\(NameSuggestion.hint(name, in: names)) (known stages: \(names.joined(separator: ", ")))")
        }
        if arguments.json {
            Terminal.standardOutput(definition.json.serialized() + "\n")
        } else {
            Terminal.standardOutput(Self.describe(definition, formats: registry.formats))
        }
        return 0
    }

    /// A plugin format in listings: `ppm (encode; .ppm, .pnm)`.
    static func describe(_ format: ImageCodec) -> String {
        let roles = [format.decoder != nil ? "decode" : nil, format.encoder != nil ? "encode" : nil].compactMap { $0 }
        let extensions = format.extensions.map { "." + $0 }
        return "\(format.name) (\((roles + extensions).joined(separator: ", ")))"
    }

    /// The human-readable description `sumi inspect` prints.
    static func describe(_ definition: StageDefinition, formats: ImageFormatRegistry) -> String {
        let d = definition.descriptor
        var text = "\(d.name) — \(d.summary)\n"
        text += "  origin:  \(definition.origin)\n"
        if let library = PluginLoader.library(at: definition.origin) {
            let facts = [library.licence.isEmpty ? nil : "licence \(library.licence)", "plugin ABI \(library.abiVersion)",
                         library.bandStages.contains(d.name) ? "band callbacks: streams" : nil].compactMap { $0 }
            text += "  plugin:  \(library.name) \(library.version) (\(facts.joined(separator: ", ")))"
                + (library.description.isEmpty ? "" : " — \(library.description)") + "\n"
            let formats = formats.pluginCodecs.filter { $0.origin == library.path }
            if !formats.isEmpty {
                text += "  formats: " + formats.map(describe).joined(separator: "; ")
                    + " — read and written by the built-in decode and encode\n"
            }
        }
        text += "  inputs:  " + (d.inputs.isEmpty ? "none" : d.inputs.map { "\($0.name) (\($0.typeName))" }.joined(separator: ", ")) + "\n"
        text += "  output:  \(d.output.rawValue)\(d.listOutputParameter.map { " (images when \($0) is a list)" } ?? "")\n"
        text += "  effect:  \(d.effect.rawValue)\n"
        if let facts = d.localFacts { text += "  here:    \(facts())\n" }
        guard !d.parameters.isEmpty else { return text + "  parameters: none\n" }
        text += "  parameters:\n"
        for p in d.parameters {
            var facts = [p.type.description]
            if p.required { facts.append("required") }
            if let v = p.defaultValue { facts.append("default \(v.description.isEmpty ? "\"\"" : v.description)") }
            if let lo = p.min { facts.append("\(p.minExclusive ? ">" : ">=") \(formatNumber(lo))") }
            if let hi = p.max { facts.append("<= \(formatNumber(hi))") }
            if let values = p.values { facts.append("one of " + values.joined(separator: "|")) }
            switch p.type.pathAccess {
            case .reads?: facts.append("reads the file")
            case .writes?: facts.append("writes the file")
            case .undeclared?: facts.append("direction not declared: --safe checks it as a read and a write")
            case nil: break
            }
            if p.namedFile != nil { facts.append("may name a file it reads: --safe takes it only below the inputs' folders") }
            if let limit = p.safeMax { facts.append("--safe: at most \(formatNumber(limit))\(p.type == .string ? " characters" : "")") }
            text += "    \(p.name)  [\(facts.joined(separator: ", "))]\n        \(p.summary)\n"
        }
        return text
    }
}
