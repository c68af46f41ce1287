import Foundation
import Glibc

/// A `sumi serve` started for a test on a free loopback port, with its own TMPDIR (so the request
/// folders it leaves, if any, can be counted), and `curl` as its client.
final class ServeServer {
    let process = Process()
    let port: Int
    /// The host as the URL names it: `127.0.0.1`, or `[::1]`.
    let host: String
    /// The server's TMPDIR.
    let temporary: String
    let folder: String
    private let errors = Pipe()
    private var counter = 0

    /// One answer.
    struct Response {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    /// Starts `sumi serve --listen LISTEN ARGUMENTS…` (`listen`: an address with port 0).
    init(_ arguments: [String], folder: String, listen: String = "127.0.0.1:0") throws {
        self.folder = folder
        temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve", "--listen", listen] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        var seen = ""
        let deadline = Date().addingTimeInterval(120)
        var found: Int?
        host = String(listen[..<(listen.lastIndex(of: ":") ?? listen.endIndex)])
        while found == nil, Date() < deadline {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if let range = seen.range(of: "listening on http://\(host):") {
                let digits = seen[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), seen[range.upperBound...].contains(" ") { found = port }
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ServeTestError("the server did not start: \(seen)")
        }
        port = found
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Starts `curl` for one request (`form`: `-F` fields, e.g. `input=@photo.jpg`, `width=50`);
    /// `finish` waits for it.
    func start(_ method: String, _ path: String, body: String? = nil, form: [String] = [], headers: [String] = []) throws -> (Process, String) {
        counter += 1
        let base = "\(folder)/response-\(counter)"
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        var arguments = ["-s", "--max-time", "300", "-X", method, "-D", base + ".head", "-o", base + ".body", "-w", "%{http_code}"]
        if let body { arguments += ["--data-binary", "@" + body, "-H", "Content-Type: application/octet-stream"] }
        for field in form { arguments += ["-F", field] }
        for header in headers { arguments += ["-H", header] }
        curl.arguments = arguments + ["http://\(host):\(port)\(path)"]
        curl.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        return (curl, base)
    }

    func finish(_ started: (Process, String)) -> Response {
        let (curl, base) = started
        curl.waitUntilExit()
        let head = (try? String(contentsOfFile: base + ".head", encoding: .utf8)) ?? ""
        var status = 0
        var headers: [String: String] = [:]
        for line in head.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("HTTP/") {
                status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
            } else if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        let body = FileManager.default.contents(atPath: base + ".body") ?? Data()
        return Response(status: status, headers: headers, body: body)
    }

    func request(_ method: String, _ path: String, body: String? = nil, form: [String] = [], headers: [String] = []) throws -> Response {
        finish(try start(method, path, body: body, form: form, headers: headers))
    }

    /// The value of one `/metrics` line (`name{labels}` exactly as printed), 0 when absent.
    func metric(_ series: String) throws -> Double {
        let text = try request("GET", "/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1)) ?? -1
        }
        return 0
    }

    /// Waits (at most `seconds`) until `condition` holds.
    func wait(seconds: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    /// The server's worker processes (children of the server).
    var workers: [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.range(of: ")", options: .backwards) else { return false }
            let fields = stat[close.upperBound...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == process.processIdentifier
        }
    }

    /// Sends `signal` and waits (at most `seconds`) for the server to end; its exit status, or nil.
    func stop(_ signal: Int32, seconds: Double) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    /// What the server printed on standard error (after it ended).
    var standardError: String { String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
}

/// A failed test set-up, with its reason.
struct ServeTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A served pipeline that stays in flight until the test lets it go: the photo through the `hold`
/// stage of the crash test plugin (Examples/crash-c, built by `make examples`), which sleeps until
/// the file `gate` exists. A run held this way spends no CPU, so tests of draining, time-outs, full
/// queues and killed workers neither race a slow machine nor slow it down.
struct HeldPipeline {
    /// `--plugin-path` and `--pipelines` for the server.
    let arguments: [String]
    /// The file whose creation lets every held run finish.
    let gate: String

    /// Writes the plugin folder and `held.json` (pipeline "held") below `dir`.
    init(in dir: String) throws {
        let built = CLI.root + "/.build/plugins/libcrash.so"
        guard FileManager.default.fileExists(atPath: built) else {
            throw ServeTestError("run `make examples` first: libcrash.so is missing")
        }
        let plugins = dir + "/held-plugins", pipelines = dir + "/held-pipelines"
        for folder in [plugins, pipelines] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: built, toPath: plugins + "/libcrash.so")
        gate = dir + "/gate"
        try """
        {"sumi": 1, "name": "held", "params": {"input": {"type": "path"}, "output": {"type": "path", "default": "out/held.png"}},
         "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},
                    {"stage": "scale", "with": {"width": 64}},
                    {"stage": "hold", "with": {"until": "\(gate)"}},
                    {"stage": "encode", "with": {"path": "${output}"}}]}
        """.write(toFile: pipelines + "/held.json", atomically: true, encoding: .utf8)
        arguments = ["--plugin-path", plugins, "--pipelines", pipelines]
    }

    /// Lets every held run (and every later one) through.
    func open() throws {
        try Data().write(to: URL(fileURLWithPath: gate))
    }
}
