import SumiEngine
/// The text of `sumi --help` and each command's help.
enum Help {
    static let version = "sumi \(SumiVersion.string) (plugin ABI \(SumiVersion.pluginABIVersions.map(String.init).joined(separator: ", ")))"

    static let main = """
    sumi — an image pipeline: text on images, pages from screenshots

    USAGE
      sumi run MANIFEST|PIPELINE [INPUT]... [-i INPUT...]... [-o PATH] [--set [ID.]NAME=VALUE]...
                        [--plugin-path DIR]... [--jobs N] [--json] [--quiet] [--dry-run]
                        [-r] [--strict] [--shard K/N|auto [--shard-by position|hash]]
                        [--skip-existing] [--print-inline]
      sumi validate MANIFEST|PIPELINE [--set [ID.]NAME=VALUE]... [--template] [--json]
      sumi stages [--json] [--plugin-path DIR]...
      sumi inspect STAGE [--json] [--plugin-path DIR]...
      sumi schema [--plugin-path DIR]...
      sumi graph MANIFEST|PIPELINE [--svg] [-o FILE]
      sumi completion bash|zsh|fish
      sumi --help | --version

    COMMANDS
      run        Run a pipeline manifest (a JSON file of stages; see pipelines/).
      validate   Check a manifest as a whole (stages, parameters, ports, references, cycles)
                 without running it.
      stages     List the stages Sumi knows: built-in ones and those of loaded plugins.
      inspect    Describe one stage: its ports and every parameter with type, default and range.
      schema     Print a JSON Schema of manifests, with every stage's parameters (for editors).
      graph      Print the stage graph as Graphviz DOT (--svg: rendered by dot).
      completion Print a shell completion script (stages and parameters from their descriptors).
      serve      Serve the pipelines over HTTP (see 'sumi serve --help' and docs/service.md).

    EXAMPLES
      sumi run pipelines/thumbnail.json -i photo.jpg -o thumb.png --set width=256
      sumi run pipelines/caption.json -i photo.jpg -o out.jpg --set text="東京タワー" --set offset=40,-30
      sumi run pipelines/thumbnail.json -i batch/*.jpg -o 'thumbs/{stem}.jpg' --set small.enlarge=false
      sumi run pipelines/thumbnail.json photos/ -r -o 'thumbs/{dir}/{stem}.webp' --dry-run
      sumi run 'decode path=in.jpg ! scale width=1024 fit=contain ! encode path=out.webp'
      sumi run 'decode ! rotate angle=90 ! encode' -i scans/ -o 'turned/{name}'
      sumi inspect text

    UNTRUSTED MANIFESTS
      validate never loads a manifest's plugins; run loads those outside the plugin folders only
      with --allow-manifest-plugins. --safe (or SUMI_SAFE=1) loads none, reads only the -i files
      (and fonts below their folders), writes only below the folder of -o, and limits pixels, text,
      files, memory and time.

    ENVIRONMENT
      SUMI_PLUGIN_PATH   colon-separated folders whose plugin libraries (*.so) are loaded
      SUMI_SAFE          1: every run is --safe; SUMI_SAFE_SECONDS lowers its 300 s time limit,
                         SUMI_SAFE_MEMORY_MB its 4096 MB memory limit

    EXIT STATUS
      0 success · 1 a run failed (unreadable image, I/O error, ...) · 2 usage, manifest or validation error

    Run 'sumi COMMAND --help' for a command's options.
    """

    static let run = """
    USAGE
      sumi run MANIFEST|PIPELINE [INPUT]... [-i INPUT...]... [-o PATH] [--set [ID.]NAME=VALUE]...
                        [--plugin-path DIR]... [--jobs N] [--json] [--quiet] [--dry-run]
                        [-r] [--strict] [--shard K/N|auto [--shard-by position|hash]]
                        [--skip-existing] [--print-inline]

    Runs the pipeline in MANIFEST, or PIPELINE written on one line (gst-launch style):
      'decode path=in.jpg ! scale width=1024 ! encode path=out.webp'
    "!" links stages; id=NAME names one and "NAME. ! ..." starts a branch from it ("NAME.PORT" links
    into one port). A decode without path reads -i, an encode without path writes -o.

    INPUTS (after -i, or after the manifest)
      FILE                    An image; several make a batch: the pipeline runs once per input.
      DIR                     The images in DIR (by extension and content; -r: and its sub-folders).
      'GLOB'                  A pattern the shell did not expand (matching nothing is an error).
      @LIST, @-               The paths in a file, one a line (or on standard input); at most 256 MiB.
      An output that is one of the inputs (the same file, by any path) is refused before anything runs.

    OPTIONS
      -i, --input INPUT...    Set the parameter "input" (the first -i replaces its default).
      -o, --output PATH       Set the parameter "output". In batch mode: a folder, or a template with
                              {stem} (name without extension), {name}, {ext}, {dir} (the input's folder
                              under its input folder) or {n} (1, 2, ...). A manifest's default output
                              may be a template too. A value that would leave the folder (a stem
                              "..", as of "...png") is refused. Missing folders are created, for -o
                              and a stage's own path alike.
      --set NAME=VALUE        Set any declared parameter; VALUE is parsed by the parameter's type
                              (size "WxH", point "X,Y", rect "X,Y,W,H", colour "#rrggbb", ...).
      --set ID.NAME=VALUE     Set parameter NAME of the stage with id ID (or the only stage of that
                              name), e.g. --set small.filter=box. Replacing a value that used
                              -i or -o (--set photo.path=x.jpg) is warned about.
      -n, --dry-run           Print the input -> output plan and validate; decode and write nothing.
      -r, --recursive         Folder inputs include their sub-folders.
      --strict                A file in a folder input that is not an image is an error (default: a
                              warning, and the file is skipped).
      --shard K/N | auto      Run only the K-th of N disjoint parts of the inputs; auto reads
                              JOB_COMPLETION_INDEX (Kubernetes, with SUMI_SHARD_COUNT) or
                              SLURM_ARRAY_TASK_ID/COUNT (see docs/scale-out.md).
      --shard-by position|hash  position (default): round robin over the sorted input list, even
                              parts; hash: by a hash of each path, for tasks whose lists may differ.
      --skip-existing         Skip runs whose output file exists (resume a batch).
      --print-inline          Print the pipeline on one line, with this run's values, and exit.
      --print-manifest        Print an inline pipeline as a manifest file, and exit.
      --plugin-path DIR       Load the plugin libraries in DIR (repeatable).
      -j, --jobs N            Batch mode: run up to N pipelines at once (default: the number of cores).
      --json                  Print one JSON report per run (JSON Lines) on stdout (stderr when an
                              output is "-"); with --shard or --skip-existing, a summary line last.
      -q, --quiet             No warnings and no progress bar.
      --safe                  Run a manifest from others: no manifest plugins, reads only below
                              the -i inputs (font files: below the inputs' folders), writes only
                              below the folder of -o (every path of a writer or plugin stage),
                              limits on pixels (50 M), text (10,000 characters), files per stage
                              (64), memory (4 GiB; SUMI_SAFE_MEMORY_MB lowers it) and time (300 s;
                              SUMI_SAFE_SECONDS lowers it); each violation is exit status 2.
      --allow-manifest-plugins  Load the manifest's plugins outside the plugin folders (their code runs).
      -h, --help              Show this help.
    """

    static let validate = """
    USAGE
      sumi validate MANIFEST|PIPELINE [--set [ID.]NAME=VALUE]... [-i INPUT]... [-o PATH]
                    [--template] [--json] [--plugin-path DIR]...

    Checks MANIFEST without running it: JSON syntax, keys, stage names, parameter types and ranges,
    port types, references, duplicate ids and cycles. Exit status 0 when valid, 2 otherwise.

    OPTIONS
      --template              Required parameters without a value are listed, not an error (the
                              rest is checked with stand-in values).
      --json                  Print {"manifest", "valid", "stages", "needs"} or {"valid": false,
                              "error", "file", "stage", "parameter"} as one JSON object.
    """

    static let schema = """
    USAGE
      sumi schema [--plugin-path DIR]...

    Prints a JSON Schema (draft 2020-12) of manifests, with every registered stage's parameters
    (types, ranges, allowed values, defaults). Save it and name it in a manifest's "$schema" so an
    editor completes and checks the manifest.
    """

    static let graph = """
    USAGE
      sumi graph MANIFEST|PIPELINE [--svg] [-o FILE] [--set [ID.]NAME=VALUE]... [--plugin-path DIR]...

    Prints the validated stage graph as Graphviz DOT: stages with their parameters as written, edges
    labelled by port. --svg (or -o FILE.svg) renders it with Graphviz's dot.
    """

    static let stages = """
    USAGE
      sumi stages [--json] [--plugin-path DIR]...

    Lists every stage: built-in ones and those of plugins found in --plugin-path folders and
    SUMI_PLUGIN_PATH. --json prints one JSON array with each stage's full description.
    """

    static let inspect = """
    USAGE
      sumi inspect STAGE [--json] [--plugin-path DIR]...

    Describes STAGE: summary, origin, input ports, output, and each parameter with its type, default,
    range or allowed values. --json prints the same as one element of 'sumi stages --json'.
    """

    static func text(for command: String) -> String? {
        switch command {
        case "run": run
        case "validate": validate
        case "stages": stages
        case "inspect": inspect
        case "schema": schema
        case "graph": graph
        case "serve": ServeCommand.help
        default: nil
        }
    }
}
