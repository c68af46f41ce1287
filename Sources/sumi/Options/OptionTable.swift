import SumiApp

/// The program's own options and commands, declared once. `Arguments` parses by it, `Help` prints
/// each command's help from it, `CompletionCommand` writes the bash, zsh and fish scripts from it and
/// `ManPage` generates docs/sumi.1 from it (a test keeps the committed page equal to the generated).
enum OptionTable {
    // MARK: Options more than one command takes

    static let input = ProgramOption("--input", short: "-i", .path, "INPUT...", repeatable: true,
        "Set the parameter \"input\" (the first -i replaces its default): files, folders, 'GLOB' patterns or @LIST files.")
    static let output = ProgramOption("--output", short: "-o", .path, "PATH",
        "Set the parameter \"output\". In batch mode: a folder, or a template with {stem} (name without extension), "
        + "{name}, {ext}, {dir} (the input's folder under its input folder) or {n} (1, 2, ...). A manifest's default "
        + "output may be a template too. A value that would leave the folder (a stem \"..\", as of \"...png\") is refused. "
        + "Missing folders are created, for -o and a stage's own path alike.")
    static let set = ProgramOption("--set", .assignment, "[ID.]NAME=VALUE", repeatable: true,
        "Set a declared parameter NAME, or parameter NAME of the stage with id ID (or of the only stage of that name, "
        + "e.g. --set small.filter=box); VALUE is parsed by the parameter's type (size \"WxH\", point \"X,Y\", "
        + "rect \"X,Y,W,H\", colour \"#rrggbb\", ...). Replacing a value that used -i or -o (--set photo.path=x.jpg) "
        + "is warned about.")
    static let pluginPath = ProgramOption("--plugin-path", .folder, "DIR", repeatable: true,
        "Load the plugin libraries in DIR (besides the folders of SUMI_PLUGIN_PATH).")
    static let json = ProgramOption("--json", "Print JSON instead of text.")
    static let quiet = ProgramOption("--quiet", short: "-q", "No warnings and no progress bar.")
    static let recursive = ProgramOption("--recursive", short: "-r", "Folder inputs include their sub-folders.")
    static let strict = ProgramOption("--strict",
        "A file in a folder input that is not an image is an error (default: a warning, and the file is skipped).")
    static let safe = ProgramOption("--safe",
        "Treat the manifest as written by others (also SUMI_SAFE=1): no manifest plugins, reads only below the -i "
        + "inputs (font files: below the inputs' folders), writes only below the folder of -o (every path of a "
        + "writer or plugin stage), limits on pixels (50 M), text (10,000 characters), files per stage (64), memory "
        + "(4 GiB; SUMI_SAFE_MEMORY_MB lowers it) and time (300 s; SUMI_SAFE_SECONDS lowers it); each violation is "
        + "exit status 2. May stand anywhere on the command line.")
    static let allowManifestPlugins = ProgramOption("--allow-manifest-plugins",
        "Load the manifest's plugins outside the plugin folders (their code runs). May stand anywhere on the command line.")
    static let help = ProgramOption("--help", short: "-h", "Show this command's help.")
    static let version = ProgramOption("--version", short: "-V", "Print the version, the plugin ABI versions and the Swift release it was built with (build Swift plugins with the same).")

    /// The options that may stand anywhere on the command line (`ProcessFlags` takes them out first).
    static let global = [safe, allowManifestPlugins]

    // MARK: The commands

    static let commands: [ProgramCommand] = [run, pipelines, validate, stages, inspect, schema, graph, formats, completion, serve]

    /// The command called `name`.
    static func command(_ name: CommandName) -> ProgramCommand {
        commands.first { $0.name == name } ?? run
    }

    static let validate = ProgramCommand(
        .validate, .pipeline(inputs: true), operands: "MANIFEST|PIPELINE [INPUT]...",
        summary: "Check a manifest as a whole (stages, parameters, ports, references, cycles) without running it.",
        description: """
        Checks MANIFEST (or PIPELINE) without running it: JSON syntax, keys, stage names, parameter types and \
        ranges, port types, references, duplicate ids and cycles, with the values -i, -o and --set give. Exit \
        status 0 when valid, 2 otherwise.
        """,
        options: [input.describing("Set the parameter \"input\", as for run."),
                  output.describing("Set the parameter \"output\", as for run."),
                  set, pluginPath,
                  ProgramOption("--template",
                      "Required parameters without a value are listed, not an error (the rest is checked with stand-in values)."),
                  json.describing("Print {\"manifest\", \"valid\", \"stages\", \"needs\"} or {\"valid\": false, \"error\", "
                                  + "\"file\", \"stage\", \"parameter\"} as one JSON object."),
                  quiet.describing("No warnings."), recursive, strict, safe, help])

    static let pipelines = ProgramCommand(
        .pipelines, .pipelineName, operands: "[PIPELINE]",
        summary: "List the pipelines 'sumi run NAME' finds by name, with their parameters.",
        description: """
        Lists the pipelines run, validate and graph find by name (sumi run caption): the user's own, in \
        $XDG_DATA_HOME/sumi/pipelines (by default ~/.local/share/sumi/pipelines), which replace shipped ones of \
        the same name, and the shipped ones. Each with its summary, its file and the parameters --set gives, \
        with their types and defaults; PIPELINE shows only that one.
        """,
        options: [json.describing("Print one JSON array: each pipeline's name, summary, file, origin and parameters."), help])

    static let stages = ProgramCommand(
        .stages, summary: "List the stages Sumi knows: built-in ones and those of loaded plugins.",
        description: """
        Lists every stage: built-in ones and those of plugins found in --plugin-path folders and SUMI_PLUGIN_PATH, \
        then the image formats plugins add.
        """,
        options: [json.describing("Print one JSON array with each stage's full description."), pluginPath, help])

    static let inspect = ProgramCommand(
        .inspect, .stage, operands: "STAGE",
        summary: "Describe one stage: its ports and every parameter with type, default and range.",
        description: """
        Describes STAGE: summary, origin, input ports, output, what it finds installed here (the languages \
        recognize reads), and each parameter with its type, default, range or allowed values.
        """,
        options: [json.describing("Print the same as one element of 'sumi stages --json'."), pluginPath, help])

    static let schema = ProgramCommand(
        .schema, summary: "Print a JSON Schema of manifests, with every stage's parameters (for editors).",
        description: """
        Prints a JSON Schema (draft 2020-12) of manifests, with every registered stage's parameters (types, \
        ranges, allowed values, defaults). Save it and name it in a manifest's "$schema" so an editor completes \
        and checks the manifest.
        """,
        options: [pluginPath, help])

    static let graph = ProgramCommand(
        .graph, .pipeline(inputs: false), operands: "MANIFEST|PIPELINE",
        summary: "Print the stage graph as Graphviz DOT (--svg: rendered by dot).",
        description: """
        Prints the validated stage graph as Graphviz DOT: stages with their parameters as written, edges \
        labelled by port.
        """,
        options: [ProgramOption("--svg", "Render the graph as SVG with Graphviz's dot."),
                  output.describing("Write the graph to FILE instead of standard output (a name ending in .svg: rendered by dot).",
                                    valueName: "FILE"),
                  set, input.describing("Set the parameter \"input\", as for run."), pluginPath, help])

    static let formats = ProgramCommand(
        .formats, summary: "List the image formats: what each reads and writes, colour profiles and metadata.",
        description: """
        Lists what each image format reads and writes, with its colour profile and metadata support; then the \
        formats of the plugins in the configured folders (--plugin-path, SUMI_PLUGIN_PATH), with their \
        extensions and library; last, what stages find installed here (the languages recognize reads).
        """,
        options: [json.describing("Print one JSON array: a row per format, plugin formats with their extensions and library, "
                                  + "and a {\"stage\", \"here\"} row per stage that reports what is installed."),
                  pluginPath, help])

    static let completion = ProgramCommand(
        .completion, .shell, operands: "bash|zsh|fish",
        summary: "Print a shell completion script (stages and parameters from their descriptors).",
        description: """
        Prints a completion script for bash, zsh or fish: the commands and their options, the stage \
        names, each stage's parameters for --set, and files where a path goes. make install writes all three.
        """,
        options: [pluginPath.describing("Load the plugin libraries in DIR, so their stages are completed too."), help])
}
