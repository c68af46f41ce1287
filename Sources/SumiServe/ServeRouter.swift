#if canImport(Glibc)
import Glibc
#endif
import SumiCodecs
import SumiApp
import SumiEngine
import SumiKit
import Synchronization

/// Answers the requests of `sumi serve` (see docs/service.md): runs go to the worker pool, the rest
/// is answered on the daemon's thread.
final class ServeRouter: Sendable {
    let catalog: PipelineCatalog
    let pool: WorkerPool
    let metrics: ServeMetrics
    let options: ServeOptions
    /// The SHA-256 of files below `--root` (for `ETag`s), kept while they do not change.
    let digests = InputDigests()
    private let draining = Atomic<Bool>(false)
    /// The daemon's counts: bodies refused with 413, slow clients closed (set once the daemon runs).
    private let daemonCounts = Mutex<(@Sendable () -> (refused: Int, slow: Int))?>(nil)

    /// The most bytes of the `Sumi-Report` header.
    static let reportLimit = 4096

    init(catalog: PipelineCatalog, pool: WorkerPool, metrics: ServeMetrics, options: ServeOptions) {
        self.catalog = catalog
        self.pool = pool
        self.metrics = metrics
        self.options = options
    }

    func countDaemon(_ counts: @escaping @Sendable () -> (refused: Int, slow: Int)) { daemonCounts.withLock { $0 = counts } }

    /// From now on runs are refused with 503 and answers close their connection.
    func startDraining() { draining.store(true, ordering: .sequentiallyConsistent) }
    var isDraining: Bool { draining.load(ordering: .sequentiallyConsistent) }

    func handle(_ request: HTTPRequest) {
        var path = request.path
        let method = request.method
        // A signed URL: /SIGNATURE/run/…, the signature over the rest of the URI as sent.
        var signed = false
        if let signature = options.signature, let slash = path.dropFirst().firstIndex(of: "/"), path[slash...].hasPrefix("/run/") {
            let segment = String(path[path.index(after: path.startIndex)..<slash])
            let uri = request.uri
            let rest = uri.hasPrefix("/" + segment + "/") ? String(uri.dropFirst(segment.count + 1)) : ""
            guard signature.verifies(segment, path: rest) else { return error(request, 403, "the URL's signature does not match") }
            signed = true
            path = String(path[slash...])
        }
        if path.hasPrefix("/run/") {
            if method == "POST", let token = options.token {
                // The scheme's name is case-insensitive (RFC 9110 11.1); the token is compared in
                // constant time.
                let given = Array((request.header("Authorization") ?? "").utf8)
                let space = given.firstIndex(of: UInt8(ascii: " ")) ?? given.endIndex
                let scheme = String(decoding: given[..<space], as: UTF8.self).lowercased()
                let credentials = Array(given[min(space + 1, given.endIndex)...].drop { $0 == UInt8(ascii: " ") })
                guard scheme == "bearer", URLSignature.constantTimeEqual(credentials, Array(token.utf8)) else {
                    return error(request, 401, "POST /run needs the header Authorization: Bearer TOKEN", extra: [("WWW-Authenticate", "Bearer")])
                }
            }
            if method != "POST", options.signature != nil, !signed {
                return error(request, 403, "GET /run needs a signed URL: /SIGNATURE/run/… (see docs/service.md)")
            }
            let name = String(path.dropFirst(5))
            switch method {
            case "POST": return run(request, name: name)
            case "GET", "HEAD": return runFromRoot(request, name: name)
            default: return error(request, 405, "\(Self.shown(method)) /run: POST the image, or GET a file below --root", extra: [("Allow", "GET, HEAD, POST")])
            }
        }
        guard method == "GET" || method == "HEAD" else {
            return error(request, 405, "\(Self.shown(method)) \(MessageText.cut(path)): only GET is served here", extra: [("Allow", "GET, HEAD")])
        }
        switch path {
        case "/healthz": json(request, 200, .object([("ok", .bool(true))]))
        case "/readyz":
            if !isDraining && pool.isReady(expected: options.workers) {
                json(request, 200, .object([("ready", .bool(true))]))
            } else {
                error(request, 503, isDraining ? "draining: the server is stopping" : "not ready: a worker is restarting or the queue is full",
                      extra: [("Retry-After", "1")])
            }
        case "/metrics":
            let counts = daemonCounts.withLock { $0?() } ?? (refused: 0, slow: 0)
            let text = metrics.text(queued: pool.queued, busy: pool.running, workers: pool.workers,
                                    refusedBodies: counts.refused, slowClients: counts.slow)
            respond(request, 200, [("Content-Type", "text/plain; version=0.0.4")], Array(text.utf8))
        case "/pipelines": json(request, 200, catalog.listing())
        default:
            if path.hasPrefix("/pipelines/") {
                let name = String(path.dropFirst("/pipelines/".count))
                guard let entry = catalog.entries[name] else { return error(request, 404, unknownPipelineMessage(name)) }
                return json(request, 200, catalog.describe(entry))
            }
            // The web editor's page and its files (docs/service.md).
            if ServeStatic.shipped.serve(request, path: path, router: self) { return }
            error(request, 404, "no such endpoint: \(path) (see GET /pipelines, POST /run/{pipeline}, /healthz, /readyz, /metrics)")
        }
    }

    /// The start shared by `POST` and `GET /run/{name}`: the pipeline and the request's answer;
    /// nil when the request is answered already (404 for an unknown pipeline, 503 while draining).
    func begin(_ request: HTTPRequest, name: String) -> (PipelineCatalog.Entry, RunAnswer)? {
        let answer = RunAnswer(router: self, request: request, pipeline: name)
        guard let entry = catalog.entries[name] else {
            answer.refuse(404, unknownPipelineMessage(name))
            return nil
        }
        if isDraining {
            answer.refuse(503, "draining: the server is stopping", extra: [("Retry-After", "1")])
            return nil
        }
        return (entry, answer)
    }

    /// `POST /run/{name}?NAME=VALUE&…` with the image as the body.
    private func run(_ request: HTTPRequest, name: String) {
        guard let (entry, answer) = begin(request, name: name) else { return }
        // A pipeline without an `input` parameter (caption-label: the text alone) runs without a body.
        let takesInput = entry.manifest.parameter(named: "input") != nil
        guard let folder = request.folder, request.bodySize > 0 || !takesInput else {
            return answer.refuse(400, "no image: send the image as the request body (or as the form's \"input\" file)", parameter: "input")
        }
        // The files the run reads: the body, or the form's files named after path parameters.
        var inputs: [String] = []
        var reads: [String] = []
        var fileSets: [(name: String, value: String)] = []
        if request.isForm {
            for (field, path) in request.files {
                guard let param = entry.manifest.parameter(named: field), SafePaths.involvesPath(param.type), field != "output" else {
                    let names = entry.manifest.params.filter { SafePaths.involvesPath($0.type) && $0.name != "output" }.map(\.name)
                    return answer.refuse(400, "the form's file field \"\(MessageText.cut(field))\" names no path parameter (path parameters: \(names.joined(separator: ", ")))", parameter: field)
                }
                reads.append(path)
                if field == "input" {
                    inputs.append(path)
                } else if case .list = param.type {
                    return answer.refuse(400, "several files for \"\(field)\" are not served yet; only \"input\" takes a list", parameter: field)
                } else if fileSets.contains(where: { $0.name == field }) {
                    return answer.refuse(400, "one file for \"\(field)\", got several", parameter: field)
                } else {
                    fileSets.append((field, path))
                }
            }
            guard !inputs.isEmpty || !takesInput else { return answer.refuse(400, "no image: the form has no file field \"input\"", parameter: "input") }
            var takesList = false
            if case .list? = entry.manifest.parameter(named: "input")?.type { takesList = true }
            if inputs.count > 1 && !takesList {
                return answer.refuse(400, "one file for \"input\", got \(inputs.count) (this pipeline takes one image)", parameter: "input")
            }
        } else if let body = request.bodyPath, request.bodySize > 0 {
            inputs = [body]
            reads = [body]
        }
        do throws(Refusal) {
            let work = try describe(entry, inputs: inputs, reads: reads, fileSets: fileSets, query: request.query, folder: folder)
            enqueue(answer, work: work, folder: folder, bytesIn: request.bodySize)
        } catch {
            answer.refuse(error.status, error.message, parameter: error.parameter)
        }
    }

    /// A request refused before it runs.
    struct Refusal: Error {
        let status: Int
        let message: String
        var parameter: String?
    }

    /// The worker's request: the query checked (`input` and `output` are not settable, `format`
    /// picks the output's extension, `max-pixels` is the server's), the run reading `inputs` and
    /// `reads` (uploaded files) and writing into `folder`. `opened` are files the server opened below
    /// --root, named by descriptor (`RootFile`).
    func describe(_ entry: PipelineCatalog.Entry, inputs: [String], reads: [String], opened: [String] = [],
                  fileSets: [(name: String, value: String)], query: [(name: String, value: String)], folder: String) throws(Refusal) -> WorkerRequest {
        var sets = fileSets
        var ext = entry.outputExtension
        for (key, value) in query {
            switch key {
            case "input", "output":
                throw Refusal(status: 400, message: "\"\(key)\" cannot be set: the input is the request body, the output the answer", parameter: key)
            case "format":
                ext = try outputExtension(format: value)
            default:
                if key.hasSuffix(".max-pixels") {
                    throw Refusal(status: 400, message: "max-pixels is the server's limit (--max-pixels), not a request's", parameter: key)
                }
                sets.append((key, value))
            }
        }
        var work = WorkerRequest(manifest: entry.path, inputs: inputs, output: folder + "/output." + ext, maxPixels: options.maxPixels)
        work.settings = sets
        work.reads = reads
        work.opened = opened
        work.root = options.root
        work.plugins = options.pluginPaths
        work.maxAnswerBytes = options.maxAnswer << 20
        return work
    }

    /// The output file's extension for `format=`: a format the built-in `encode` writes, or one a
    /// plugin of the server's `--plugin-path` folders writes (by its name or an extension), as
    /// `encode` itself chooses by the output's extension.
    func outputExtension(format value: String) throws(Refusal) -> String {
        let formats = catalog.registry.formats
        if let codec = formats.encoder(named: value) ?? formats.encoder(forExtension: value), let first = codec.extensions.first {
            return codec.extensions.contains(value.lowercased()) ? value.lowercased() : first
        }
        throw Refusal(status: 400, message: "format: expected one of \(catalog.writableFormats.joined(separator: ", ")), got \"\(MessageText.cut(value))\"",
                      parameter: "format")
    }

    /// Queues a run (503 when the queue is full) and answers when it ends, with `headers` added to a
    /// successful answer; `done` runs after the answer (or the refusal).
    func enqueue(_ run: RunAnswer, work: WorkerRequest, folder: String,
                 bytesIn: Int, headers: [(String, String)] = [], shown: [(String, String)] = [],
                 done: (@Sendable () -> Void)? = nil) {
        metrics.start(bytesIn: bytesIn)
        let job = WorkerPool.Job(request: work.json, deadline: run.arrival + Double(options.timeout)) { [self] outcome in
            let (status, sent) = answer(run.request, outcome, output: work.output, folder: folder, headers: headers, shown: shown)
            done?()
            run.finish(status: status, bytesOut: sent, started: true)
        }
        if !pool.submit(job) {
            done?()
            run.refuse(503, "busy: \(options.queue) requests are waiting already; try again", extra: [("Retry-After", "1")], started: true)
        }
    }

    /// Answers a run's outcome; returns the status and the bytes of output sent.
    /// `shown` renames paths in messages (the /proc name of a file below --root → its name there).
    private func answer(_ request: HTTPRequest, _ outcome: WorkerProcess.Outcome, output: String, folder: String,
                        headers extra: [(String, String)], shown: [(String, String)]) -> (Int, Int) {
        switch outcome {
        case .timedOut:
            error(request, 504, "the run took longer than the limit of \(options.timeout) s (--timeout)")
            return (504, 0)
        case .crashed(let how):
            error(request, 500, "the run crashed: \(how); the worker was replaced")
            return (500, 0)
        case .overMemory(let bytes):
            error(request, 422, "the run used more than \(bytes >> 20) MB of memory, more than the limit of \(options.maxMemory) MB (--max-memory); stopped")
            return (422, 0)
        case .answer(let reply):
            guard case .success(let format, let report) = WorkerAnswer(json: reply) else {
                guard case .failure(let kind, let text, let stage, let parameter) = WorkerAnswer(json: reply) else { return (500, 0) }
                // The worker's messages are those of `sumi run --safe --set`: here the values come from the
                // query and the files from the request, and the server's paths are not shown.
                var message = Self.serviceWording(text).replacing(folder + "/", with: "")
                for (path, name) in shown { message = message.replacing(path, with: name) }
                if let root = options.root { message = message.replacing(root + "/", with: "") }
                error(request, kind.httpStatus, message, stage: stage, parameter: parameter)
                return (kind.httpStatus, 0)
            }
            let fd = open(output, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard fd >= 0, fstat(fd, &info) == 0 else {
                if fd >= 0 { close(fd) }
                error(request, 500, "the run wrote no output")
                return (500, 0)
            }
            let type = format == "pdf" ? "application/pdf" : ImageFormat(rawValue: format).map { "image/\($0.rawValue)" } ?? "application/octet-stream"
            var headers = [("Content-Type", type)] + extra
            if report != .null { headers.append(("Sumi-Report", Self.compact(report))) }
            respond(request, 200, headers, fd: fd, size: Int(info.st_size))
            return (200, Int(info.st_size))
        }
    }

    /// The run report for the `Sumi-Report` header: without the server's file paths, and at most
    /// `reportLimit` bytes (the stage list goes first, then the outputs).
    static func compact(_ report: JSONValue) -> String {
        guard var members = report.objectValue else { return report.serialized() }
        members = members.map { key, value in
            guard key == "outputs", let outputs = value.arrayValue else { return (key, value) }
            return (key, .array(outputs.map { output in .object((output.objectValue ?? []).filter { $0.0 != "path" }) }))
        }
        for dropped in ["", "stages", "outputs"] {
            members.removeAll { $0.0 == dropped }
            let text = JSONValue.object(members).serialized()
            if text.utf8.count <= reportLimit { return text }
        }
        return JSONValue.object(members.filter { $0.0 == "pipeline" || $0.0 == "ok" }).serialized()
    }

    /// A request's method as a message shows it: at most 32 characters (a method can be as long as
    /// the request head allows).
    /// The command line's words in a worker's messages (`sumi run --safe -i … -o … --set …`) and
    /// what they are for a request: its values come from the query or form, its files from the body
    /// or below --root, and the safe rules are the service's own. Longest phrases first.
    static let wording: [(String, String)] = [
        ("reads only the files given with -i (or below a folder given)", "a request reads only its own files (and those below --root)"),
        ("must lie below the folders of the -i inputs", "must be one of the request's files or lie below --root"),
        ("writes only below the folder of -o", "a request writes only its own output"),
        ("standard input is read only when given as -i -", "a request has no standard input"),
        ("in a safe run", "in a served run"),
        ("--set names", "the query names"),
        ("--set: ", ""),
        ("--safe: ", ""),
    ]

    static func serviceWording(_ message: String) -> String {
        wording.reduce(message) { $0.replacing($1.0, with: $1.1) }
    }

    static func shown(_ method: String) -> String {
        method.count <= 32 ? method : String(method.prefix(32)) + "…"
    }

    /// 404 for a pipeline not served: the message lists those served.
    func unknownPipelineMessage(_ name: String) -> String {
        let names = catalog.entries.keys.sorted()
        return "no pipeline \"\(MessageText.cut(name))\"\(NameSuggestion.hint(name, in: names)) (pipelines: \(names.joined(separator: ", ")))"
    }

    /// A JSON error: `{"error": …, "stage": …, "parameter": …}`.
    func error(_ request: HTTPRequest, _ status: Int, _ message: String, stage: String? = nil, parameter: String? = nil,
                       extra: [(String, String)] = []) {
        let body: JSONValue = .object([
            ("error", .string(message)), ("stage", stage.map { .string($0) } ?? .null), ("parameter", parameter.map { .string($0) } ?? .null),
        ])
        json(request, status, body, extra: extra)
    }

    func json(_ request: HTTPRequest, _ status: Int, _ value: JSONValue, extra: [(String, String)] = []) {
        respond(request, status, [("Content-Type", "application/json")] + extra, Array((value.serialized() + "\n").utf8))
    }

    func respond(_ request: HTTPRequest, _ status: Int, _ headers: [(String, String)], _ body: [UInt8]) {
        request.respond(status: status, headers: headers + closing, body: body)
    }

    private func respond(_ request: HTTPRequest, _ status: Int, _ headers: [(String, String)], fd: Int32, size: Int) {
        request.respond(status: status, headers: headers + closing, fd: fd, size: size)
    }

    /// While draining, every answer closes its connection.
    private var closing: [(String, String)] { isDraining ? [("Connection", "close")] : [] }
}
