#if canImport(Glibc)
import Glibc
#endif
import CSumiHTTP
import SumiApp
import SumiEngine
import SumiKit

/// One worker of `sumi serve`: this same executable started with `posix_spawn` in the hidden worker
/// mode (never `fork` of the threaded server), in its own process group (a Ctrl-C meant for the
/// server does not end runs it is draining), with `SUMI_SAFE=1`. Requests go down one pipe as JSON
/// lines, answers come back up another (`ServeWorker`). Killed and reaped when released.
final class WorkerProcess {
    enum Outcome {
        case answer(JSONValue)
        /// The worker ended or broke the protocol; the text says how.
        case crashed(String)
        case timedOut
        /// The worker's resident memory passed the limit (in bytes); it was killed.
        case overMemory(Int)
    }

    let pid: pid_t
    private let requests: Int32
    private let answers: Int32
    private let reader: LineReader
    private var reaped = false

    private init(pid: pid_t, requests: Int32, answers: Int32) {
        self.pid = pid
        self.requests = requests
        self.answers = answers
        reader = LineReader(fd: answers)
    }

    deinit {
        close(requests)
        close(answers)
        terminate()
    }

    /// This executable, as the kernel knows it.
    static let executable = Installation.executable ?? CommandLine.arguments.first ?? "sumi"

    /// The server's environment variables a worker gets: those that shape how text, time and
    /// temporary files behave, the safe run's own limits, and the sanitizers' options. Nothing else —
    /// not the token (`SUMI_SERVE_TOKEN`), the URL key, or `SUMI_PLUGIN_PATH` (a worker loads only
    /// the server's `--plugin-path` folders).
    static func workerEnvironment() -> [String] {
        let names: Set<String> = ["PATH", "HOME", "USER", "LANG", "LANGUAGE", "TZ", "TMPDIR", "SOURCE_DATE_EPOCH",
                                  "FONTCONFIG_FILE", "FONTCONFIG_PATH", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
                                  "XDG_DATA_HOME", "XDG_DATA_DIRS", "LD_LIBRARY_PATH", "SUMI_SAFE_SECONDS",
                                  "SUMI_SAFE_MEMORY_MB", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"]
        var kept: [String] = []
        var at = environ
        while let entry = at.pointee {
            let text = String(cString: entry)
            let name = String(text.prefix { $0 != "=" })
            if names.contains(name) || name.hasPrefix("LC_") { kept.append(text) }
            at += 1
        }
        return kept
    }

    /// Starts a worker.
    static func spawn() throws(SumiError) -> WorkerProcess {
        var down: [Int32] = [0, 0], up: [Int32] = [0, 0]
        guard sumi_http_cloexec_pipe(&down) == 0 else { throw SumiError(.run, "cannot make a pipe for a worker: \(FileIO.errorText(errno))") }
        guard sumi_http_cloexec_pipe(&up) == 0 else {
            close(down[0]); close(down[1])
            throw SumiError(.run, "cannot make a pipe for a worker: \(FileIO.errorText(errno))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, down[0], ServeWorker.requestDescriptor)
        posix_spawn_file_actions_adddup2(&actions, up[1], ServeWorker.answerDescriptor)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let environment = Self.workerEnvironment() + ["SUMI_SAFE=1"]
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(ServeWorker.command), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(down[0])
        close(up[1])
        guard result == 0 else {
            close(down[1]); close(up[0])
            throw SumiError(.run, "cannot start a worker (\(executable)): \(FileIO.errorText(result))")
        }
        return WorkerProcess(pid: pid, requests: down[1], answers: up[0])
    }

    /// Sends one request and waits for its answer, at most `milliseconds`, looking at the worker's
    /// resident memory ten times a second: over `memoryLimit` bytes, the worker is killed.
    func run(_ request: JSONValue, milliseconds: Int, memoryLimit: Int) -> Outcome {
        do { try FileIO.writeAll(requests, Array((request.serialized() + "\n").utf8), path: "worker pipe") } catch {
            return .crashed(ending())
        }
        let end = BatchPlan.now() + Double(milliseconds) / 1000
        while true {
            let left = Int((end - BatchPlan.now()) * 1000)
            if left <= 0 { return .timedOut }
            switch reader.next(milliseconds: min(left, 100)) {
            case .line(let line):
                guard let answer = try? JSONParser.parse(line) else { return .crashed("the worker answered something not JSON") }
                return .answer(answer)
            case .closed: return .crashed(ending())
            case .timedOut:
                let resident = residentBytes()
                if resident > memoryLimit {
                    terminate()
                    return .overMemory(resident)
                }
            }
        }
    }

    /// The worker's resident memory, from /proc/PID/statm (0 when it cannot be read).
    func residentBytes() -> Int {
        guard let bytes = try? FileIO.read("/proc/\(pid)/statm", limit: 4096) else { return 0 }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Whether the worker still runs (reaping it when it has ended).
    var isAlive: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            reaped = true
            return false
        }
        return true
    }

    /// Kills the worker (if it still runs) and reaps it.
    func terminate() {
        guard !reaped else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
    }

    /// How the worker ended (reaping it).
    private func ending() -> String {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        let signal = status & 0x7f
        if signal != 0 { return "the worker running it ended by signal \(signal)" }
        return "the worker running it exited with status \((status >> 8) & 0xff)"
    }
}
