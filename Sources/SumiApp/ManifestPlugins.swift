#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// Which of a manifest's `plugins` a command loads. A plugin is code: `validate` never loads a
/// manifest's plugins; `run` loads those inside the configured plugin folders (`--plugin-path`,
/// `SUMI_PLUGIN_PATH`), and others only with `--allow-manifest-plugins`; a `--safe` run loads none.
package enum ManifestPlugins {
    package static func load(_ manifest: Manifest, into registry: StageRegistry, validating: Bool, policy: RunPolicy,
                     pluginFolders: [String]) throws(SumiError) {
        let file = FileIO.fileName(of: manifest.path)
        guard !manifest.plugins.isEmpty else { return }
        if validating {
            // Stages the plugins would bring are unknown here: say why, rather than only "unknown".
            for stage in manifest.stages where registry.definition(named: stage.stage) == nil {
                throw SumiError(.usage, file: file, stage: stage.place,
                                "unknown stage \"\(MessageText.cut(stage.stage))\": validate never loads a manifest's plugins (that would run their code); give the plugin's folder with --plugin-path to check its stages")
            }
            return
        }
        if policy.safe {
            throw SumiError(.usage, file: file, "--safe: the manifest names plugins (\(manifest.plugins.map(MessageText.cut).joined(separator: ", "))); a safe run loads no manifest plugins")
        }
        let folders = pluginFolders.compactMap(SafePaths.canonical)
        for library in manifest.plugins where !policy.allowManifestPlugins {
            // The libraries folder loading takes: the *.so files directly in a configured folder.
            guard let parent = SafePaths.canonical(FileIO.directory(of: library)), folders.contains(parent) else {
                throw SumiError(.usage, file: file, "plugins: \(MessageText.cut(library)) is outside the configured plugin folders; loading it runs its code: give --allow-manifest-plugins to allow it")
            }
            guard PluginLoader.isLibraryName(FileIO.fileName(of: library)) else {
                throw SumiError(.usage, file: file, "plugins: \(MessageText.cut(library)) is in a configured plugin folder but is not one of its libraries (a plugin folder offers its *.so files); loading it runs its code: give --allow-manifest-plugins to allow it")
            }
        }
        for library in manifest.plugins {
            do { try PluginLoading.loadLibrary(library, into: registry) } catch {
                var e = error
                e.file = e.file ?? file
                throw e
            }
        }
    }

    /// The configured plugin folders: the system folder an administrator installs into (see
    /// `Installation`), `--plugin-path`, then `SUMI_PLUGIN_PATH`; with `configured: false`,
    /// `pluginPaths` alone (a served run loads only the server's `--plugin-path`).
    package static func folders(_ pluginPaths: [String], configured: Bool = true) -> [String] {
        guard configured else { return pluginPaths }
        var folders = Installation.systemPluginFolder.map { [$0] } ?? []
        folders += pluginPaths
        if let env = getenv("SUMI_PLUGIN_PATH") {
            folders += String(cString: env).split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        return folders
    }
}
