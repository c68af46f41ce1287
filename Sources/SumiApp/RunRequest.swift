import SumiEngine
import SumiKit

/// What a program asks a session to run or check: a pipeline (a manifest path, a shipped pipeline's
/// name, or an inline pipeline), its inputs and output, parameter settings, plugin folders and batch
/// options. The command line fills it from `-i`, `-o`, `--set`, `--plugin-path`…; `sumi serve`'s
/// workers from a request.
public struct RunRequest: Sendable {
    public var pipeline: String
    /// Input files, folders, 'GLOB' patterns or `@LIST` files (the manifest's `input` parameter).
    public var inputs: [String] = []
    /// The manifest's `output` parameter: a file, a folder or a template.
    public var output: String?
    /// Manifest parameters by name, stage parameters by `ID.PARAM`, as text.
    public var settings: [(name: String, value: String)] = []
    /// Plugin folders besides the configured ones.
    public var pluginPaths: [String] = []
    /// Whether the system plugin folder and `SUMI_PLUGIN_PATH` are loaded besides `pluginPaths`
    /// (a served run loads only the server's `--plugin-path` folders).
    public var configuredPlugins = true
    /// Checking only (`validate`): a manifest's plugins are never loaded.
    public var validating = false
    /// Input expansion, sharding and what is printed instead of running.
    public var batch = BatchOptions()
    /// Further files and folders a safe run may read besides the inputs (a served request's other
    /// uploads, the server's `--root`).
    public var readable: [String] = []
    /// Files the program opened itself and hands over by their descriptor's name (`/proc/PID/fd/N`):
    /// read as they are (`RunPolicy.Roots.opened`).
    public var opened: Set<String> = []

    public init(pipeline: String) { self.pipeline = pipeline }
}
