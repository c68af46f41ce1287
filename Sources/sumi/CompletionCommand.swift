import SumiApp
import SumiEngine
import SumiKit

/// `sumi completion bash|zsh|fish`: a shell completion script (SumiApp's `CompletionScripts`) for the
/// commands and options of `OptionTable`, the registered stages' descriptors and the pipelines found
/// by name with their parameters. `make install` writes all three.
struct CompletionCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let shell = arguments.target ?? "", shells = CompletionScripts.shells
        guard shells.contains(shell) else {
            throw SumiError.usage("unknown shell \"\(shell)\"\(NameSuggestion.hint(shell, in: shells)) (shells: \(shells.joined(separator: ", ")))")
        }
        let registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths, warn: { Terminal.warning($0) })
        let scripts = CompletionScripts(commands: OptionTable.commands, help: OptionTable.help, version: OptionTable.version,
                                        stages: registry.all.map(\.descriptor), pipelines: CompletionScripts.PipelineNames.installed())
        switch shell {
        case "bash": Terminal.standardOutput(scripts.bash)
        case "zsh": Terminal.standardOutput(scripts.zsh)
        default: Terminal.standardOutput(scripts.fish)
        }
        return 0
    }
}
