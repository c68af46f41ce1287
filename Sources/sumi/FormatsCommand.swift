import SumiCodecs
import SumiApp
import SumiEngine
import SumiKit

/// `sumi formats [--json] [--plugin-path DIR]...`: what each image format reads and writes, with
/// colour profile and metadata support; then the formats of the plugins in the configured folders
/// (`--plugin-path`, `SUMI_PLUGIN_PATH`), with their extensions and library.
struct FormatsCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let json = arguments.json
        let catalog = try StageCatalog.registry(pluginPaths: arguments.pluginPaths, warn: { Terminal.warning($0) })
        let registry = catalog.formats
        let plugins = registry.pluginCodecs, builtins = FormatSupport.all(registry)
        // What stages find installed here (the languages `recognize` reads).
        let facts = catalog.all.compactMap { definition in definition.descriptor.localFacts.map { (definition.descriptor.name, $0()) } }
        if json {
            let rows = builtins.map { row in
                JSONValue.object([
                    ("format", .string(row.name)), ("read", .bool(row.reads)), ("write", .bool(row.writes)),
                    ("profile", .string(row.profile)), ("metadata", .string(row.metadata)), ("notes", .string(row.notes)),
                ])
            }
            let pluginRows = plugins.map { format in
                JSONValue.object([
                    ("format", .string(format.name)), ("read", .bool(format.decoder != nil)), ("write", .bool(format.encoder != nil)),
                    ("extensions", .array(format.extensions.map(JSONValue.string))), ("origin", .string(format.origin)),
                ])
            }
            let factRows = facts.map { JSONValue.object([("stage", .string($0.0)), ("here", .string($0.1))]) }
            Terminal.standardOutput(JSONValue.array(rows + pluginRows + factRows).serialized() + "\n")
            return 0
        }
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(1, n - s.count)) }
        var text = "format  read  write  colour profile                        metadata                notes\n"
        for row in builtins {
            text += pad(row.name, max(8, row.name.count + 2)) + pad(row.reads ? "yes" : "no", 6) + pad(row.writes ? "yes" : "no", 7)
                + pad(row.profile.isEmpty ? "-" : row.profile, 38) + pad(row.metadata.isEmpty ? "-" : row.metadata, 24)
                + row.notes + "\n"
        }
        if !plugins.isEmpty {
            let extensions = plugins.map { $0.extensions.isEmpty ? "-" : $0.extensions.map { "." + $0 }.joined(separator: " ") }
            let width = max(15, (plugins.map(\.name.count).max() ?? 0) + 2)
            let extensionsWidth = max(12, (extensions.map(\.count).max() ?? 0) + 2)
            text += "\n" + pad("plugin format", width) + "read  write  " + pad("extensions", extensionsWidth) + "library\n"
            for (format, extensions) in zip(plugins, extensions) {
                text += pad(format.name, width) + pad(format.decoder != nil ? "yes" : "no", 6)
                    + pad(format.encoder != nil ? "yes" : "no", 7) + pad(extensions, extensionsWidth) + format.origin + "\n"
            }
        }
        for (stage, fact) in facts { text += "\n\(stage): \(fact)\n" }
        Terminal.standardOutput(text)
        return 0
    }
}
