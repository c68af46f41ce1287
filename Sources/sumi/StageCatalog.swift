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

/// Builds the registry a command works with: the built-in families, then plugins from
/// `--plugin-path` folders, `SUMI_PLUGIN_PATH` and the manifest's `plugins`.
enum StageCatalog {
    /// The built-in stage families, registered exactly as plugins are.
    static let builtinFamilies: [[StageDefinition]] = [
        CodecsStages.stages,
        TransformStages.stages,
        TextStages.stages,
        ComposeStages.stages,
        PageStages.stages,
    ]

    static func registry(pluginPaths: [String]) throws(SumiError) -> StageRegistry {
        let registry = StageRegistry()
        for family in builtinFamilies { try registry.register(family) }
        var folders = pluginPaths
        if let env = getenv("SUMI_PLUGIN_PATH") {
            folders += String(cString: env).split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        for folder in folders {
            try PluginLoader.loadFolder(folder, into: registry) { Terminal.warning($0) }
        }
        return registry
    }
}
