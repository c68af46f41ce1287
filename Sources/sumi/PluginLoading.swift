import SumiKit

/// Plugin discovery for the CLI.
enum PluginLoading {
    static func loadFolder(_ folder: String, into registry: StageRegistry) throws(SumiError) {
        guard FileIO.isDirectory(folder) else {
            throw SumiError.usage("plugin folder \(folder) does not exist")
        }
        throw SumiError.usage("plugin loading is not available in this build")
    }

    static func loadLibrary(_ path: String, into registry: StageRegistry) throws(SumiError) {
        throw SumiError.usage("plugin loading is not available in this build (\(path))")
    }
}
