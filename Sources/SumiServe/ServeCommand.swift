#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiEngine
import SumiKit

/// `sumi serve`: the pipelines as an HTTP service (docs/service.md). Runs happen in worker
/// processes; SIGTERM (or SIGINT) stops accepting, lets the runs in flight finish (up to
/// `--timeout`), and exits 0.
public enum ServeCommand {
    /// Serves until SIGTERM or SIGINT; `optionNames` are the options that take a value, as the
    /// command line's option table declares them (its help, completions and man page).
    public static func main(_ argv: [String], optionNames: [String]) -> Int32 {
        // The signals are waited for here: blocked before any thread starts, so every thread
        // (the daemon's, the workers') inherits the mask.
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in [SIGTERM, SIGINT] { sigaddset(&signals, s) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do throws(SumiError) {
            let options = try ServeOptions.parse(argv, names: optionNames)
            for warning in options.warnings { Terminal.warning(warning) }
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
            settings.perClientLimit = options.perClientLimit
            settings.maxDisk = options.maxDisk << 20
            settings.allowedHosts = options.allowedHosts
            settings.idleTimeout = options.idleTimeout
            settings.headerTimeout = Double(options.headerTimeout)
            settings.minBodyRate = Double(options.minBodyRate)
            settings.maxBody = options.maxBody
            settings.temporaryBase = TemporaryFolder.base
            let daemon = try HTTPDaemon(settings) { router.handle($0) }
            router.countDaemon { [weak daemon] in (daemon?.refusedBodies ?? 0, daemon?.slowClients ?? 0) }
            metrics.observeDaemon { [weak daemon] in
                guard let daemon else { return ServeMetrics.DaemonGauges() }
                return ServeMetrics.DaemonGauges(heldBytes: daemon.heldBytes, heldPeak: daemon.heldPeak,
                                                 diskRefusals: daemon.diskRefusals, headRefusals: daemon.headRefusals)
            }
            Terminal.standardError("sumi serve: listening on http://\(options.urlHost):\(daemon.port) (\(catalog.entries.count) pipelines, \(options.workers) workers)\n")

            var received: Int32 = 0
            while sigwait(&signals, &received) != 0 {}
            Terminal.standardError("sumi serve: \(received == SIGTERM ? "SIGTERM" : "SIGINT"): draining (at most \(options.timeout) s)\n")
            let signalled = BatchPlan.now()
            router.startDraining()
            daemon.drain()
            let idle = pool.waitIdle(seconds: Double(options.timeout))
            // The last answers may still be on their way, and uploads answered 503 linger a moment:
            // their connections close (slow readers at --min-body-rate), within the drain time.
            let end = max(BatchPlan.now() + 2, signalled + Double(options.timeout))
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
