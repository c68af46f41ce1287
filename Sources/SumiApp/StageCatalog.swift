#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit
import SumiTransform
import SumiCompose
import SumiCodecs
import SumiText
import SumiPage
import SumiFilters
import SumiRecognize

/// Builds the registry a command works with: the built-in families, then plugins from the system
/// plugin folder, `--plugin-path` folders, `SUMI_PLUGIN_PATH` and the manifest's `plugins`.
package enum StageCatalog {
    /// The built-in stage families, registered exactly as plugins are.
    /// `formats` is the registry's: `encode` writes the plugin formats loaded into it.
    package static func builtinFamilies(formats: ImageFormatRegistry) -> [(name: String, stages: [StageDefinition])] { [
        (CodecsStages.name, CodecsStages.stages(formats: formats)),
        (TransformStages.name, TransformStages.stages),
        (TextStages.name, TextStages.stages),
        (ComposeStages.name, ComposeStages.stages),
        (PageStages.name, PageStages.stages),
        (FiltersStages.name, FiltersStages.stages),
        (RecognizeStages.name, RecognizeStages.stages),
    ] }

    /// `SUMI_SKIP_BUILTIN=compose` (comma-separated family names) leaves families out, so a plugin
    /// built from the same sources can provide their stages: how the tests prove the ABI carries a
    /// built-in family unchanged (`make test-parity`).
    package static var skippedFamilies: Set<String> {
        guard let env = getenv("SUMI_SKIP_BUILTIN") else { return [] }
        return Set(String(cString: env).split(separator: ",").map(String.init))
    }

    /// The built-ins, a program's own `stages` (`Session.stages`), then the plugins of
    /// `pluginPaths` and the configured folders (the system folder, `SUMI_PLUGIN_PATH`);
    /// `configured: false` loads `pluginPaths` alone (a served run).
    package static func registry(pluginPaths: [String], configured: Bool = true, stages: [StageDefinition] = [],
                                 warn: (String) -> Void) throws(SumiError) -> StageRegistry {
        let registry = StageRegistry()
        let skipped = skippedFamilies
        for family in builtinFamilies(formats: registry.formats) where !skipped.contains(family.name) { try registry.register(family.stages) }
        if !stages.isEmpty { try registry.register(stages) }
        for folder in ManifestPlugins.folders(pluginPaths, configured: configured) {
            try PluginLoader.loadFolder(folder, into: registry) { warn($0) }
        }
        return registry
    }

    /// Every stage (a plugin's with its library: name, version, licence, description, ABI), every
    /// plugin format and every library that failed to load, as one JSON array: `sumi stages --json`.
    package static func listing(_ registry: StageRegistry) -> JSONValue {
        let stages = registry.all.map { definition -> JSONValue in
            guard case .object(var members) = definition.json,
                  let library = PluginLoader.library(at: definition.origin) else { return definition.json }
            members.append(("plugin", .object([("name", .string(library.name)), ("version", .string(library.version)),
                                               ("licence", .string(library.licence)),
                                               ("description", .string(library.description)),
                                               ("abi", .number(Double(library.abiVersion)))])))
            return .object(members)
        }
        let formats = registry.formats.pluginCodecs.map { format in
            JSONValue.object([("format", .string(format.name)), ("decode", .bool(format.decoder != nil)),
                              ("encode", .bool(format.encoder != nil)),
                              ("extensions", .array(format.extensions.map(JSONValue.string))),
                              ("origin", .string(format.origin))])
        }
        let broken = registry.brokenLibraries.map { JSONValue.object([("broken", .string($0.path)), ("reason", .string($0.reason))]) }
        return .array(stages + formats + broken)
    }
}
