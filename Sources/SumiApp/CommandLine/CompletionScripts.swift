import SumiEngine
import SumiKit

/// The bash, zsh and fish completion scripts: commands and options from the option table, stage names
/// and each stage's parameters (for `--set STAGE.PARAM=`) from the descriptors, the pipelines found by
/// name (those present when the script is made, and for bash and zsh the user's pipeline folder's as
/// completion runs) with their parameters (`--set NAME=` after the pipeline), files where a path goes.
public struct CompletionScripts: Sendable {
    /// A pipeline found by name and its declared parameters.
    public struct PipelineNames: Sendable {
        public let name: String
        public let parameters: [String]

        public init(name: String, parameters: [String]) {
            self.name = name
            self.parameters = parameters
        }

        /// `NAME=` for each parameter `--set` gives (input and output have -i and -o).
        var setTargets: [String] { parameters.filter { $0 != "input" && $0 != "output" }.map { $0 + "=" } }

        /// The pipelines `InstalledPipelines` finds by name now (one whose manifest does not load is left out).
        public static func installed() -> [PipelineNames] {
            InstalledPipelines.all().compactMap { entry in
                guard let manifest = try? ManifestLoader.load(path: entry.path) else { return nil }
                return PipelineNames(name: entry.name, parameters: manifest.params.map(\.name))
            }
        }
    }

    /// The shells a script is written for.
    public static let shells = ["bash", "zsh", "fish"]

    /// The commands and their options (`sumi`'s `OptionTable.commands`), in the order they are offered.
    let commands: [ProgramCommand]
    /// The options that stand alone after the program's name (`--help`, `--version`).
    let help: ProgramOption, version: ProgramOption
    let stages: [StageDescriptor]
    let pipelines: [PipelineNames]
    let shells = Self.shells

    public init(commands: [ProgramCommand], help: ProgramOption, version: ProgramOption, stages: [StageDescriptor],
                pipelines: [PipelineNames] = []) {
        self.commands = commands
        self.help = help
        self.version = version
        self.stages = stages
        self.pipelines = pipelines
    }

    /// `stage.param=` for every parameter of every stage (`--set` takes a stage name used once).
    var setTargets: [String] { stages.flatMap { d in d.parameters.map { "\(d.name).\($0.name)=" } } }
    var stageNames: [String] { stages.map(\.name) }
    var pipelineNames: [String] { pipelines.map(\.name) }

    /// Shell code printing the names of the user's pipelines (`…/sumi/pipelines/*.json`) at completion time.
    static let userPipelines = #"( cd "${XDG_DATA_HOME:-$HOME/.local/share}/sumi/pipelines" 2>/dev/null && for f in *.json; do [ -f "$f" ] && echo "${f%.json}"; done )"#

    /// Every option once, by long name, with its value kind (the same in every command that takes it).
    var options: [ProgramOption] {
        var seen = Set<String>()
        return commands.flatMap(\.options).filter { seen.insert($0.long).inserted }
    }

    /// The option names (short and long) whose value is of `kind`.
    func names(where kind: (ProgramOption.Value) -> Bool) -> [String] {
        options.filter { kind($0.value) }.flatMap(\.names)
    }

    var pathOptions: [String] { names { $0 == .path } }
    var folderOptions: [String] { names { $0 == .folder } }
    var freeOptions: [String] { names { $0 == .number || $0 == .text } }
    var wordOptions: [(names: [String], words: [String])] {
        options.compactMap { option in
            if case .word(let words, _) = option.value { return (option.names, words) }
            return nil
        }
    }

    func commandNames(_ operand: (ProgramCommand.Operand) -> Bool) -> [String] {
        commands.filter { operand($0.operand) }.map(\.name.rawValue)
    }

    /// Text fit for a single-quoted shell word and a one-line description.
    static func plain(_ text: String, limit: Int = 70) -> String {
        var short = text.replacingAll("'", with: "")
        if let end = short.firstRange(of: ". ") ?? short.firstRange(of: "; ") ?? short.firstRange(of: " (") {
            short = String(short[..<end.lowerBound])
        }
        if short.hasSuffix(".") { short.removeLast() }
        return short.count > limit ? String(short.prefix(limit - 1)) + "…" : short
    }

    public var bash: String {
        let commandCases = commands.map { command -> String in
            let operand = switch command.operand {
            case .pipeline: "files"
            case .stage: "stages"
            case .shell: "shells"
            case .pipelineName: "pipelines"
            case .none: "none"
            }
            return "    \(command.name.rawValue)) options=\"\(command.optionNames.joined(separator: " "))\"; operand=\(operand) ;;"
        }
        let words = wordOptions.map { "    \($0.names.joined(separator: "|"))) COMPREPLY=($(compgen -W \"\($0.words.joined(separator: " "))\" -- \"$cur\")); return ;;" }
        let pipelineSets = pipelines.map { "    \($0.name)|\($0.name).json) psets=\"\($0.setTargets.joined(separator: " "))\" ;;" }
        return """
        # bash completion for sumi, generated by 'sumi completion bash' from its option table and the stage descriptors.
        _sumi() {
          local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
          local commands="\(commands.map(\.name.rawValue).joined(separator: " "))"
          local stages="\(stageNames.joined(separator: " "))"
          local sets="\(setTargets.joined(separator: " "))"
          local pipelines="\(pipelineNames.joined(separator: " ")) $\(Self.userPipelines)"
          local psets=""
          case "${COMP_WORDS[2]}" in
        \(pipelineSets.joined(separator: "\n"))
          esac
          if [ "$COMP_CWORD" -eq 1 ]; then
            COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur")); return
          fi
          case "$prev" in
            \(pathOptions.joined(separator: "|"))) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
            \(folderOptions.joined(separator: "|"))) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return ;;
            --set) compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W "$psets $sets" -- "$cur")); return ;;
        \(words.joined(separator: "\n"))
            \(freeOptions.joined(separator: "|"))) return ;;
          esac
          local options="" operand=none
          case "${COMP_WORDS[1]}" in
        \(commandCases.joined(separator: "\n"))
          esac
          if [[ "$cur" == -* ]]; then
            COMPREPLY=($(compgen -W "$options" -- "$cur")); return
          fi
          case "$operand" in
            files) compopt -o filenames 2>/dev/null
              if [ "$COMP_CWORD" -eq 2 ]; then COMPREPLY=($(compgen -W "$pipelines" -- "$cur") $(compgen -f -- "$cur"))
              else COMPREPLY=($(compgen -f -- "$cur")); fi ;;
            pipelines) COMPREPLY=($(compgen -W "$pipelines" -- "$cur")) ;;
            stages) COMPREPLY=($(compgen -W "$stages" -- "$cur")) ;;
            shells) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$cur")) ;;
          esac
        }
        complete -F _sumi sumi

        """
    }

    public var zsh: String {
        func quoted(_ items: [String]) -> String { items.map { "'\($0)'" }.joined(separator: " ") }
        func described(_ name: String, _ summary: String) -> String {
            "'\(name):\(Self.plain(summary).replacingAll(":", with: " -"))'"
        }
        let commandCases = commands.map { "    \($0.name.rawValue)) options=(\($0.optionNames.joined(separator: " "))) ;;" }
        let words = wordOptions.map { "    \($0.names.joined(separator: "|"))) compadd \($0.words.joined(separator: " ")); return ;;" }
        let pipelineSets = pipelines.map { "    \($0.name)|\($0.name).json) psets=(\(quoted($0.setTargets))) ;;" }
        return """
        #compdef sumi
        # zsh completion for sumi, generated by 'sumi completion zsh' from its option table and the stage descriptors.
        _sumi() {
          local -a commands stages sets options pipelines psets
          commands=(\(commands.map { described($0.name.rawValue, $0.summary) }.joined(separator: " ")))
          stages=(\(stages.map { described($0.name, $0.summary) }.joined(separator: " ")))
          sets=(\(quoted(setTargets)))
          pipelines=(\(quoted(pipelineNames)) ${(f)"$\(Self.userPipelines)"})
          case "$words[3]" in
        \(pipelineSets.joined(separator: "\n"))
          esac
          if (( CURRENT == 2 )); then
            _describe 'command' commands; return
          fi
          case "$words[CURRENT-1]" in
            \(pathOptions.joined(separator: "|"))) _files; return ;;
            \(folderOptions.joined(separator: "|"))) _files -/; return ;;
            --set) compadd -S '' -a psets sets; return ;;
        \(words.joined(separator: "\n"))
            \(freeOptions.joined(separator: "|"))) return ;;
          esac
          case "$words[2]" in
        \(commandCases.joined(separator: "\n"))
          esac
          if [[ "$PREFIX" == -* ]]; then
            compadd -a options; return
          fi
          case "$words[2]" in
            \(commandNames { if case .pipeline = $0 { true } else { false } }.joined(separator: "|"))) (( CURRENT == 3 )) && compadd -a pipelines; _files ;;
            \(commandNames { $0 == .pipelineName }.joined(separator: "|"))) compadd -a pipelines ;;
            \(commandNames { $0 == .stage }.joined(separator: "|"))) _describe 'stage' stages ;;
            \(commandNames { $0 == .shell }.joined(separator: "|"))) compadd \(shells.joined(separator: " ")) ;;
          esac
        }
        _sumi "$@"

        """
    }

    public var fish: String {
        var lines = ["# fish completion for sumi, generated by 'sumi completion fish' from its option table and the stage descriptors.",
                     "complete -c sumi -f",
                     "complete -c sumi -n '__fish_use_subcommand' -s h -l help -d '\(Self.plain(help.summary))'",
                     "complete -c sumi -n '__fish_use_subcommand' -s V -l version -d '\(Self.plain(version.summary))'"]
        for command in commands {
            lines.append("complete -c sumi -n '__fish_use_subcommand' -a \(command.name.rawValue) -d '\(Self.plain(command.summary))'")
        }
        for d in stages {
            lines.append("complete -c sumi -n '__fish_seen_subcommand_from \(commandNames { $0 == .stage }.joined(separator: " "))' -a \(d.name) -d '\(Self.plain(d.summary))'")
        }
        lines.append("complete -c sumi -n '__fish_seen_subcommand_from \(commandNames { if case .pipeline = $0 { true } else { false } }.joined(separator: " "))' -F")
        let named = commandNames { if case .pipeline = $0 { true } else { $0 == .pipelineName } }
        for pipeline in pipelines {
            lines.append("complete -c sumi -n '__fish_seen_subcommand_from \(named.joined(separator: " "))' -a \(pipeline.name) -d pipeline")
            if !pipeline.setTargets.isEmpty {
                lines.append("complete -c sumi -n '__fish_seen_subcommand_from \(pipeline.name) \(pipeline.name).json' -l set -x -a '\(pipeline.setTargets.joined(separator: " "))'")
            }
        }
        lines.append("complete -c sumi -n '__fish_seen_subcommand_from \(commandNames { $0 == .shell }.joined(separator: " "))' -a '\(shells.joined(separator: " "))'")
        for option in options {
            let takers = commands.filter { $0.option(named: option.long) != nil }.map(\.name.rawValue)
            var line = "complete -c sumi -n '__fish_seen_subcommand_from \(takers.joined(separator: " "))'"
            if let short = option.short { line += " -s \(short.dropFirst())" }
            line += " -l \(option.long.dropFirst(2))"
            switch option.value {
            case .flag: break
            case .path, .folder: line += " -r -F"
            case .assignment: line += " -x -a '\(setTargets.joined(separator: " "))'"
            case .word(let words, _): line += " -x -a '\(words.joined(separator: " "))'"
            case .number, .text: line += " -x"
            }
            lines.append(line + " -d '\(Self.plain(option.summary))'")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
