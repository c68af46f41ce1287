import SumiApp

extension OptionTable {
    static let run = ProgramCommand(
        .run, .pipeline(inputs: true), operands: "MANIFEST|PIPELINE [INPUT]...",
        summary: "Run a pipeline: by name (sumi pipelines lists them), a manifest file (JSON) or one written on one line.",
        description: """
        Runs the pipeline in MANIFEST (a file, or the name of a pipeline 'sumi pipelines' lists: caption, \
        thumbnail, fullpage ...), or PIPELINE written on one line (gst-launch style): \
        'decode path=in.jpg ! scale width=1024 ! encode path=out.webp'. "!" links stages; id=NAME names one and \
        "NAME. ! ..." starts a branch from it ("NAME.PORT" links into one port). A decode without path reads -i, \
        an encode without path writes -o. Several inputs make a batch: the pipeline runs once per input.
        """,
        helpNotes: """
        INPUTS (after -i, or after the manifest)
          FILE                    An image; several make a batch: the pipeline runs once per input.
          DIR                     The images in DIR (by extension and content; -r: and its sub-folders).
          'GLOB'                  A pattern the shell did not expand (matching nothing is an error).
          @LIST, @-               The paths in a file, one a line (or on standard input); at most 256 MiB.
          An output that is one of the inputs (the same file, by any path) is refused before anything runs.
        """,
        options: [
            input, output, set,
            ProgramOption("--dry-run", short: "-n", "Print the input -> output plan and validate; decode and write nothing."),
            recursive, strict,
            ProgramOption("--shard", .word(words: ["auto", "1/2", "2/2", "1/4", "2/4", "3/4", "4/4"], closed: false), "K/N|auto",
                "Run only the K-th of N disjoint parts of the inputs; auto reads JOB_COMPLETION_INDEX (Kubernetes, with "
                + "SUMI_SHARD_COUNT) or SLURM_ARRAY_TASK_ID/COUNT (see docs/scale-out.md)."),
            ProgramOption("--shard-by", .word(words: ["position", "hash"], closed: true), "position|hash",
                "How --shard splits the inputs: position (default) deals the sorted input list round robin, so parts "
                + "differ by at most one input; hash picks a part from a hash of each path, for tasks whose lists may differ."),
            ProgramOption("--skip-existing", "Skip runs whose output file exists (outputs are written atomically, so a rerun resumes a batch)."),
            ProgramOption("--print-inline", "Print the pipeline on one line, with this run's values, and exit."),
            ProgramOption("--print-manifest", "Print an inline pipeline as a manifest file, and exit."),
            pluginPath,
            ProgramOption("--jobs", short: "-j", .number, "N", "Batch mode: run up to N pipelines at once (1 to 1024; default: the number of cores)."),
            json.describing("Print one JSON report per run (JSON Lines) on standard output (standard error when an "
                            + "output is \"-\"); with --shard or --skip-existing, a summary line last."),
            quiet, safe, allowManifestPlugins, help,
        ])
}
