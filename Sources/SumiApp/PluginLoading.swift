import SumiEngine
import SumiKit

/// Plugin discovery for the CLI: folders (`--plugin-path`, `SUMI_PLUGIN_PATH`) and single libraries
/// (a manifest's `plugins`).
package enum PluginLoading {
    package static func loadLibrary(_ path: String, into registry: StageRegistry) throws(SumiError) {
        try PluginLoader.loadLibrary(at: path, into: registry)
    }
}
