import SumiApp
import SumiKit
import Testing

/// The completion scripts written from a command table and stage descriptors, in-process: what each
/// shell offers after each command, and descriptions made fit for one quoted shell word. (The
/// end-to-end `OptionTableTests` source the scripts `sumi completion` prints in the shells.)
@Suite struct CompletionScriptsTests {
    static let help = ProgramOption("--help", short: "-h", "Show this command's help.")
    static let scripts = CompletionScripts(
        commands: [
            ProgramCommand(.run, .pipeline(inputs: true), summary: "Run a pipeline: by name.", description: "", options: [
                ProgramOption("--input", short: "-i", .path, "INPUT...", repeatable: true, "Inputs."),
                ProgramOption("--shard-by", .word(words: ["position", "hash"], closed: true), "position|hash", "How it's split."),
                help,
            ]),
            ProgramCommand(.stages, summary: "List the stages.", description: "",
                           options: [ProgramOption("--plugin-path", .folder, "DIR", "Plugins."), help]),
        ],
        help: help, version: ProgramOption("--version", short: "-V", "Print the version."),
        stages: [StageDescriptor(name: "scale", summary: "Resize: keep the aspect. More.", inputs: [PortSpec(name: "in", accepts: .image)],
                                 output: .image, parameters: [ParameterSpec("width", .integer, summary: "Width.")])],
        pipelines: [CompletionScripts.PipelineNames(name: "thumbnail", parameters: ["input", "output", "width"])])

    @Test func eachCommandOffersItsOwnOptionsAndTheirValues() {
        let bash = Self.scripts.bash
        #expect(bash.contains(#"    run) options="-i --input --shard-by -h --help"; operand=files ;;"#))
        #expect(bash.contains(#"    stages) options="--plugin-path -h --help"; operand=none ;;"#))
        #expect(bash.contains(#"    -i|--input) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))"#))
        #expect(bash.contains(#"    --plugin-path) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur"))"#))
        #expect(bash.contains(#"    --shard-by) COMPREPLY=($(compgen -W "position hash" -- "$cur")); return ;;"#))
        #expect(bash.contains(#"  local sets="scale.width=""#))
        // A pipeline's own parameters follow it, without input and output (-i and -o give those).
        #expect(bash.contains(#"    thumbnail|thumbnail.json) psets="width=" ;;"#))
        let fish = Self.scripts.fish.split(separator: "\n").map(String.init)
        #expect(fish.contains("complete -c sumi -n '__fish_seen_subcommand_from stages' -l plugin-path -r -F -d 'Plugins'"))
        #expect(fish.contains("complete -c sumi -n '__fish_seen_subcommand_from run' -l shard-by -x -a 'position hash' -d 'How its split'"))
        #expect(fish.contains("complete -c sumi -n '__fish_seen_subcommand_from run stages' -s h -l help -d 'Show this commands help'"))
        #expect(fish.contains("complete -c sumi -n '__fish_use_subcommand' -s V -l version -d 'Print the version'"))
        // zsh: a description ends at its first sentence, and its colons (zsh's separator) become dashes.
        #expect(Self.scripts.zsh.contains("  stages=('scale:Resize - keep the aspect')\n"))
        #expect(Self.scripts.zsh.contains("  commands=('run:Run a pipeline - by name' 'stages:List the stages')\n"))
    }
}
