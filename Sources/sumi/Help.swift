/// The text of `sumi --help` and each command's help.
enum Help {
    static let version = "sumi 0.1.0"

    static let main = """
    sumi — an image pipeline: text on images, pages from screenshots

    USAGE
      sumi run MANIFEST [-i PATH]... [-o PATH] [--set NAME=VALUE]... [--plugin-path DIR]...
                        [--jobs N] [--json] [--quiet]
      sumi validate MANIFEST [--set NAME=VALUE]... [--plugin-path DIR]...
      sumi stages [--json] [--plugin-path DIR]...
      sumi inspect STAGE [--json] [--plugin-path DIR]...
      sumi --help | --version

    COMMANDS
      run        Run a pipeline manifest (a JSON file of stages; see pipelines/).
      validate   Check a manifest as a whole (stages, parameters, ports, references, cycles)
                 without running it.
      stages     List the stages Sumi knows: built-in ones and those of loaded plugins.
      inspect    Describe one stage: its ports and every parameter with type, default and range.

    EXAMPLES
      sumi run pipelines/thumbnail.json -i photo.jpg -o thumb.png --set width=256
      sumi run pipelines/caption.json -i photo.jpg -o out.jpg --set text="東京タワー" --set offset=40,-30
      sumi run pipelines/thumbnail.json -i a.jpg -i b.jpg -i c.jpg -o 'thumbs/{stem}.png' --jobs 2
      sumi inspect text

    UNTRUSTED MANIFESTS
      validate never loads a manifest's plugins; run loads those outside the plugin folders only
      with --allow-manifest-plugins. --safe (or SUMI_SAFE=1) loads none, reads only the -i files,
      writes only below the folder of -o, and limits pixels, text, files, memory and time.

    ENVIRONMENT
      SUMI_PLUGIN_PATH   colon-separated folders whose plugin libraries (*.so) are loaded
      SUMI_SAFE          1: every run is --safe; SUMI_SAFE_SECONDS lowers its 300 s time limit

    EXIT STATUS
      0 success · 1 a run failed (unreadable image, I/O error, ...) · 2 usage, manifest or validation error

    Run 'sumi COMMAND --help' for a command's options.
    """

    static let run = """
    USAGE
      sumi run MANIFEST [-i PATH]... [-o PATH] [--set NAME=VALUE]... [--plugin-path DIR]...
                        [--jobs N] [--json] [--quiet]

    Runs the pipeline in MANIFEST. Parameters the manifest declares can be set from the command line.

    OPTIONS
      -i, --input PATH        Set the parameter "input" (the first -i replaces its default, each
                              further -i appends). When "input" is a single path and several -i are
                              given, the pipeline runs once per input (batch mode).
      -o, --output PATH       Set the parameter "output". In batch mode: a folder, or a template
                              containing {stem} (file name without extension) or {name}.
      --set NAME=VALUE        Set any declared parameter; VALUE is parsed by the parameter's type
                              (size "WxH", point "X,Y", rect "X,Y,W,H", colour "#rrggbb", ...).
      --plugin-path DIR       Load the plugin libraries in DIR (repeatable).
      -j, --jobs N            Batch mode: run up to N pipelines at once (default: the number of cores).
      --json                  Print one JSON report per run (JSON Lines) on stdout (stderr when an
                              output is "-").
      -q, --quiet             No warnings and no progress bar.
      --safe                  Run a manifest from others: no manifest plugins, reads only below
                              the -i inputs, writes only below the folder of -o, limits on pixels
                              (50 M), text (10,000 characters), files per stage (64), memory (8 GiB)
                              and time (300 s); each violation is exit status 2.
      --allow-manifest-plugins  Load the manifest's plugins outside the plugin folders (their code runs).
      -h, --help              Show this help.
    """

    static let validate = """
    USAGE
      sumi validate MANIFEST [--set NAME=VALUE]... [--plugin-path DIR]...

    Checks MANIFEST without running it: JSON syntax, keys, stage names, parameter types and ranges,
    port types, references, duplicate ids and cycles. Exit status 0 when valid, 2 otherwise.
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
        default: nil
        }
    }
}
