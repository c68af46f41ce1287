#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// `sumi serve`: the pipelines as an HTTP service (docs/service.md). Runs happen in worker
/// processes; SIGTERM (or SIGINT) stops accepting, lets the runs in flight finish (up to
/// `--timeout`), and exits 0.
enum ServeCommand {
    static let help = """
    Usage: sumi serve [--listen ADDRESS:PORT] [--pipelines DIR]... [options]

    Serves the shipped pipelines and those of each --pipelines folder over HTTP:
    POST /run/{pipeline}?NAME=VALUE&... with the image as the body answers the output image;
    GET /pipelines, /pipelines/{name}, /healthz, /readyz, /metrics. See docs/service.md.

    Options:
      --listen ADDRESS:PORT   Address and port (default 127.0.0.1:8080; IPv6 in brackets: [::1]:8080;
                              port 0 picks a free one, printed on standard error).
      --pipelines DIR         More pipelines (one manifest per .json file; repeatable).
      --plugin-path DIR       Plugins the served pipelines may use (repeatable); a pipeline naming
                              plugins of its own is refused, as are plugins from requests.
      --root DIR              Files below DIR may be read by runs (besides the uploaded image).
      --workers N             Worker processes (default: the number of cores).
      --queue N               Requests that may wait for a worker (default 64; more: 503).
      --timeout S             Seconds from a request's arrival to its answer (default 60; over: 504);
                              also the longest drain after SIGTERM.
      --max-body BYTES        Largest request body (default 100000000; over: 413).
      --max-pixels N          Most pixels of a decoded image (default and largest 50000000).
      --max-memory MB         Most resident memory of one worker (default 4096; over it: 422).
      --connections N         Most connections at once (default 1024).
      --idle-timeout S        Seconds a connection may stay idle (default 30).
      --token TOKEN           POST /run needs "Authorization: Bearer TOKEN" (or set SUMI_SERVE_TOKEN,
                              which other users cannot see in the process list).
      --key HEX --salt HEX    GET /run needs URLs signed with HMAC-SHA256 (docs/service.md).
      --header-timeout S      Seconds for a request's head, from the connection or the previous
                              answer on it (default 10).
      --min-body-rate BYTES   Bytes per second a body must average after its first second
                              (default 16384; 0: no limit).
    """

    static func main(_ argv: [String]) -> Int32 {
        if argv.contains("--help") || argv.contains("-h") {
            Terminal.standardOutput(help + "\n")
            return 0
        }
        // The signals are waited for here: blocked before any thread starts, so every thread
        // (the daemon's, the workers') inherits the mask.
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in [SIGTERM, SIGINT] { sigaddset(&signals, s) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do throws(SumiError) {
            let options = try ServeOptions.parse(argv)
            let shipped = Installation.pipelinesFolder
            let catalog = try PipelineCatalog.load(extra: options.pipelineFolders, shipped: shipped, pluginPaths: options.pluginPaths)
            guard !catalog.entries.isEmpty else { throw SumiError.usage("no pipelines to serve (give --pipelines DIR)") }
            let metrics = ServeMetrics()
            let pool = try WorkerPool(workers: options.workers, queueLimit: options.queue, memoryLimit: options.maxMemory << 20, metrics: metrics)
            let router = ServeRouter(catalog: catalog, pool: pool, metrics: metrics, options: options)
            var settings = HTTPDaemon.Settings()
            settings.address = options.address
            settings.port = options.port
            settings.threads = max(2, min(options.workers, 8))
            settings.connectionLimit = options.connectionLimit
            settings.idleTimeout = options.idleTimeout
            settings.headerTimeout = Double(options.headerTimeout)
            settings.minBodyRate = Double(options.minBodyRate)
            settings.maxBody = options.maxBody
            var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            if base.isEmpty { base = "/tmp" }
            settings.temporaryBase = base
            let daemon = try HTTPDaemon(settings) { router.handle($0) }
            router.countDaemon { [weak daemon] in (daemon?.refusedBodies ?? 0, daemon?.slowClients ?? 0) }
            Terminal.standardError("sumi serve: listening on http://\(options.urlHost):\(daemon.port) (\(catalog.entries.count) pipelines, \(options.workers) workers)\n")

            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
            Terminal.standardError("sumi serve: \(received == SIGTERM ? "SIGTERM" : "SIGINT"): draining (at most \(options.timeout) s)\n")
            router.startDraining()
            daemon.quiesce()
            let idle = pool.waitIdle(seconds: Double(options.timeout))
            // The last answers may still be on their way: a moment for their connections to close.
            let end = BatchPlan.now() + 2
            while daemon.connections > 0 && BatchPlan.now() < end {
                var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
                nanosleep(&pause, nil)
            }
            guard idle else {
                // Runs still going: the process ends without waiting for them (the workers end when
                // their pipes close).
                Terminal.standardError("sumi serve: stopped with runs unfinished after \(options.timeout) s\n")
                exit(0)
            }
            daemon.stop()
            Terminal.standardError("sumi serve: stopped\n")
            return 0
        } catch {
            Terminal.error(error)
            return error.exitCode
        }
    }
}
