import SumiApp

extension OptionTable {
    static let serve = ProgramCommand(
        .serve, summary: "Serve the pipelines over HTTP (docs/service.md).",
        description: """
        Serves the shipped pipelines and those of each --pipelines folder over HTTP: POST /run/{pipeline}?NAME=VALUE&... \
        with the image as the body answers the output image; GET /pipelines, /pipelines/{name}, /healthz, /readyz, \
        /metrics; GET / is a caption editor and page builder for a web browser. Each run happens in a worker process; SIGTERM (or SIGINT) stops accepting, lets the runs in \
        flight finish (up to --timeout) and exits 0. See docs/service.md.
        """,
        options: [
            ProgramOption("--listen", .text, "ADDRESS:PORT",
                "Address and port (default 127.0.0.1:8080; IPv6 in brackets: [::1]:8080; port 0 picks a free one, printed on standard error)."),
            ProgramOption("--pipelines", .folder, "DIR", repeatable: true, "More pipelines (one manifest per .json file)."),
            pluginPath.describing(
                "Plugins the served pipelines may use; a pipeline naming plugins of its own is refused, as are plugins from requests."),
            ProgramOption("--root", .folder, "DIR", "Files below DIR may be read by runs (besides the uploaded image)."),
            ProgramOption("--workers", .number, "N", "Worker processes (1 to 256; default: the number of cores)."),
            ProgramOption("--queue", .number, "N", "Requests that may wait for a worker (default 64; more: 503)."),
            ProgramOption("--timeout", .number, "S",
                "Seconds from a request's arrival to its answer (default 60; over: 504); also the longest drain after SIGTERM."),
            ProgramOption("--max-body", .number, "BYTES", "Largest request body (default 100000000; over: 413)."),
            ProgramOption("--max-pixels", .number, "N",
                "Most pixels of any image a run makes: decoded, drawn, padded, scaled or stitched (default and largest 50000000; over: 400 before the stage makes it)."),
            ProgramOption("--max-answer", .number, "MB",
                "Largest answer file (default 100; a run that would write more: 400, before the file is written)."),
            ProgramOption("--max-memory", .number, "MB", "Most resident memory of one worker (default 4096; over it: 422)."),
            ProgramOption("--max-disk", .number, "MB",
                "Most megabytes the requests' temporary folders hold at once: bodies, uploads and answers being sent (default 1024; over it: 503)."),
            ProgramOption("--connections", .number, "N", "Most connections at once (default 1024)."),
            ProgramOption("--connections-per-client", .number, "N",
                "Most connections at once from one IP address (default --connections / 4, at least 1; more are closed at once), so one client leaves the rest to others."),
            ProgramOption("--idle-timeout", .number, "S", "Seconds a connection may stay idle (default 30)."),
            ProgramOption("--header-timeout", .number, "S",
                "Seconds for a request's head, from the connection or the previous answer on it (default 10)."),
            ProgramOption("--min-body-rate", .number, "BYTES",
                "Bytes per second a body, or an output being read, must move over the last 5 seconds, after its first second (default 16384; 0: no limit)."),
            ProgramOption("--allow-host", .text, "NAME", repeatable: true,
                "A name the Host header may give besides the listen address, localhost, 127.0.0.1 and [::1] (others: 421), and a page's Origin may name for POST (others: 403); NAME:PORT allows one port only."),
            ProgramOption("--token", .text, "TOKEN",
                "POST /run needs \"Authorization: Bearer TOKEN\" (or set SUMI_SERVE_TOKEN, which other users cannot see in the process list)."),
            ProgramOption("--key-file", .path, "FILE",
                "GET /run needs URLs signed with HMAC-SHA256 (docs/service.md): the key in hexadecimal on FILE's first line, the salt on its second (or set SUMI_SERVE_KEY and SUMI_SERVE_SALT)."),
            ProgramOption("--key", .text, "HEX",
                "With --salt: the signing key in hexadecimal (visible to other users in the process list: prefer --key-file)."),
            ProgramOption("--salt", .text, "HEX", "The salt of signed GET /run URLs, with --key."),
            help,
        ])
}
