import SumiApp
import SumiEngine
import SumiKit

/// `sumi completion bash|zsh|fish`: a shell completion script (`CompletionScripts`) for the
/// commands and options of `OptionTable`, the registered stages' descriptors and the pipelines found
/// by name with their parameters. `make install` writes all three.
struct CompletionCommand {
    let arguments: Arguments

    static let shells = ["bash", "zsh", "fish"]

    func execute() throws(SumiError) -> Int32 {
        let shell = arguments.target ?? ""
        guard Self.shells.contains(shell) else {
            throw SumiError.usage("unknown shell \"\(shell)\"\(NameSuggestion.hint(shell, in: Self.shells)) (shells: \(Self.shells.joined(separator: ", ")))")
        }
        let registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths, warn: { Terminal.warning($0) })
        let pipelines = InstalledPipelines.all().compactMap { entry -> CompletionScripts.PipelineNames? in
            guard let manifest = try? ManifestLoader.load(path: entry.path) else { return nil }
            return CompletionScripts.PipelineNames(name: entry.name, parameters: manifest.params.map(\.name))
        }
        let scripts = CompletionScripts(stages: registry.all.map(\.descriptor), pipelines: pipelines)
        switch shell {
        case "bash": Terminal.standardOutput(scripts.bash)
        case "zsh": Terminal.standardOutput(scripts.zsh)
        default: Terminal.standardOutput(scripts.fish)
        }
        return 0
    }
}
