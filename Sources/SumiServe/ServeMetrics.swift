import SumiKit
import Synchronization

/// The counters of `sumi serve`, shown by `GET /metrics` in Prometheus' text format.
final class ServeMetrics: Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    private struct State {
        var requests: [String: [Int: Int]] = [:]
        var bucketCounts = [Int](repeating: 0, count: ServeMetrics.buckets.count)
        var latencyCount = 0
        var latencySum = 0.0
        var inFlight = 0
        var bytesIn = 0
        var bytesOut = 0
        var workerRestarts = 0
        var workerTimeouts = 0
    }

    private let state = Mutex(State())

    /// What the HTTP daemon counts, read when `/metrics` is asked.
    struct DaemonGauges: Sendable {
        var heldBytes = 0
        var heldPeak = 0
        var diskRefusals = 0
        var headRefusals = 0
    }

    private let daemonGauges = Mutex<(@Sendable () -> DaemonGauges)?>(nil)

    /// Where `text` reads the daemon's gauges from (set once the daemon runs).
    func observeDaemon(_ read: @escaping @Sendable () -> DaemonGauges) { daemonGauges.withLock { $0 = read } }

    /// A `POST /run` request has been accepted: counted in flight until `finish`.
    func start(bytesIn: Int) {
        state.withLock { $0.inFlight += 1; $0.bytesIn += bytesIn }
    }

    /// A `/run` request was answered (`started`: whether `start` counted it).
    func finish(pipeline: String, status: Int, seconds: Double, bytesOut: Int, started: Bool) {
        state.withLock { s in
            if started { s.inFlight -= 1 }
            s.requests[pipeline, default: [:]][status, default: 0] += 1
            s.bytesOut += bytesOut
            s.latencyCount += 1
            s.latencySum += seconds
            for (i, bound) in Self.buckets.enumerated() where seconds <= bound { s.bucketCounts[i] += 1 }
        }
    }

    func workerRestarted(timedOut: Bool) {
        state.withLock { $0.workerRestarts += 1; if timedOut { $0.workerTimeouts += 1 } }
    }

    /// `/run` requests in flight (queued or running).
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// The exposition text; the gauges and the daemon's counts come from elsewhere.
    func text(queued: Int, busy: Int, workers: Int, refusedBodies: Int, slowClients: Int) -> String {
        let s = state.withLock { $0 }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
        }
        /// A family of one unlabelled sample.
        func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
            family(name, type, help)
            lines.append("\(name) \(value)")
        }
        family("sumi_serve_requests_total", "counter", "POST /run requests answered, by pipeline and HTTP status.")
        for pipeline in s.requests.keys.sorted() {
            for (status, count) in (s.requests[pipeline] ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append("sumi_serve_requests_total{pipeline=\"\(Self.label(pipeline))\",status=\"\(status)\"} \(count)")
            }
        }
        family("sumi_serve_request_seconds", "histogram", "Time from a POST /run request's arrival to its answer.")
        for (i, bound) in Self.buckets.enumerated() {
            lines.append("sumi_serve_request_seconds_bucket{le=\"\(formatNumber(bound))\"} \(s.bucketCounts[i])")
        }
        lines.append("sumi_serve_request_seconds_bucket{le=\"+Inf\"} \(s.latencyCount)")
        lines.append("sumi_serve_request_seconds_sum \(s.latencySum)")
        lines.append("sumi_serve_request_seconds_count \(s.latencyCount)")
        single("sumi_serve_in_flight", "gauge", "POST /run requests accepted and not yet answered.", s.inFlight)
        single("sumi_serve_queued", "gauge", "Requests waiting for a worker.", queued)
        single("sumi_serve_workers_busy", "gauge", "Workers running a request.", busy)
        single("sumi_serve_workers", "gauge", "Worker processes running.", workers)
        single("sumi_serve_received_bytes_total", "counter", "Request body bytes received by POST /run.", s.bytesIn)
        single("sumi_serve_sent_bytes_total", "counter", "Output bytes sent by POST /run.", s.bytesOut)
        single("sumi_serve_bodies_refused_total", "counter", "Requests refused with 413 while their body arrived (over --max-body).", refusedBodies)
        single("sumi_serve_slow_clients_closed_total", "counter",
               "Connections closed for a request head not complete in time, or a body or an output moving slower than --min-body-rate.", slowClients)
        let daemon = daemonGauges.withLock { $0?() } ?? DaemonGauges()
        single("sumi_serve_held_bytes", "gauge", "Bytes held now in the requests' temporary folders (bodies, uploads, outputs being sent).", daemon.heldBytes)
        single("sumi_serve_held_bytes_peak", "gauge", "The most bytes the requests' temporary folders held at once.", daemon.heldPeak)
        single("sumi_serve_disk_refused_total", "counter", "Requests refused with 503 because the requests' folders would pass --max-disk.", daemon.diskRefusals)
        single("sumi_serve_head_refused_total", "counter",
               "Requests refused at their head: bad framing or method (400), a foreign Origin (403) or Host (421).", daemon.headRefusals)
        single("sumi_serve_worker_restarts_total", "counter", "Workers replaced after a crash, a time-out or running over --max-memory.", s.workerRestarts)
        single("sumi_serve_worker_timeouts_total", "counter", "Workers killed for running over --timeout.", s.workerTimeouts)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label value with `\`, `"` and newlines escaped.
    static func label(_ text: String) -> String {
        text.map { c -> String in
            switch c {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\n"
            default: String(c)
            }
        }.joined()
    }
}
