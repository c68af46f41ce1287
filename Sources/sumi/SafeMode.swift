#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// `--safe` (or `SUMI_SAFE=1`): running manifests written by others, as a service does.
///
/// A safe run loads no manifest plugins, reads files only below the inputs given with `-i`,
/// writes only below the folder of `-o` (or to standard output; a plugin's `write_file` is checked as
/// it writes, through `writeConfinement`), and has limits on decoded pixels,
/// text length, the number of captures, its wall time and its address space (`setrlimit`). Every
/// violation found before the run is exit 2 with a message naming the place; the time limit ends a
/// run with exit 2 and removes its temporary files. Also parses `--allow-manifest-plugins`.
struct SafeMode: Sendable {
    var safe = false
    var allowManifestPlugins = false

    /// The most pixels one decoded image may have (`decode`'s `max-pixels` is capped to it).
    static let maxPixels = 50_000_000
    /// The most characters of one `text` stage's text.
    static let maxTextLength = 10_000
    /// The most files one `decode` stage may read (captures for `stitch`).
    static let maxCaptures = 64
    /// Wall time of a whole invocation, in seconds (`SUMI_SAFE_SECONDS` may lower it).
    static let maxSeconds = 300
    /// Resident memory, in bytes (`SUMI_SAFE_MEMORY_MB` may lower it): checked ten times a second,
    /// a run over it ends with exit 2 and a message, its temporary files removed.
    static let maxResident = 4 << 30
    /// Address space, in bytes: a last backstop far behind the resident limit (an allocation past it
    /// would fail inside a library).
    static let maxAddressSpace = 16 << 30

    /// The options of this process, and the arguments without them (they may stand anywhere).
    static let (current, arguments): (SafeMode, [String]) = {
        var mode = SafeMode()
        if let env = getenv("SUMI_SAFE"), ["1", "yes", "true"].contains(String(cString: env).lowercased()) {
            mode.safe = true
        }
        var rest: [String] = []
        for argument in CommandLine.arguments.dropFirst() {
            switch argument {
            case "--safe": mode.safe = true
            case "--allow-manifest-plugins": mode.allowManifestPlugins = true
            default: rest.append(argument)
            }
        }
        return (mode, rest)
    }()

    /// The wall-time limit in seconds.
    var seconds: Int {
        guard let env = getenv("SUMI_SAFE_SECONDS"), let n = Int(String(cString: env)), n >= 1 else { return Self.maxSeconds }
        return min(n, Self.maxSeconds)
    }

    /// The resident-memory limit in bytes.
    var residentLimit: Int {
        guard let env = getenv("SUMI_SAFE_MEMORY_MB"), let n = Int(String(cString: env)), n >= 1 else { return Self.maxResident }
        return min(n << 20, Self.maxResident)
    }

    /// Starts the limits of a safe run: address space, and a watchdog for the wall time and the
    /// resident memory.
    func startLimits() {
        guard safe else { return }
        // Not under AddressSanitizer: its shadow memory alone takes terabytes of address space.
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil {
            var space = rlimit(rlim_cur: rlim_t(Self.maxAddressSpace), rlim_max: rlim_t(Self.maxAddressSpace))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space)
        }
        let box = UnsafeMutablePointer<(seconds: Int, bytes: Int)>.allocate(capacity: 1)
        box.initialize(to: (seconds, residentLimit))
        var thread = pthread_t()
        pthread_create(&thread, nil, { argument in
            guard let limits = argument?.assumingMemoryBound(to: (seconds: Int, bytes: Int).self).pointee else { return nil }
            var start = timespec()
            clock_gettime(CLOCK_MONOTONIC, &start)
            while true {
                var tick = timespec(tv_sec: 0, tv_nsec: 100_000_000), left = timespec()
                while nanosleep(&tick, &left) != 0 { tick = left }
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                if now.tv_sec - start.tv_sec >= limits.seconds {
                    Terminal.standardError("sumi: error: --safe: the run took longer than its limit of \(limits.seconds) s; stopped\n")
                    TemporaryFiles.cleanUpAndExit(2)
                }
                let resident = SafeMode.residentBytes()
                if resident > limits.bytes {
                    Terminal.standardError("sumi: error: --safe: the run used \(resident >> 20) MB of memory, more than its limit of \(limits.bytes >> 20) MB; stopped\n")
                    TemporaryFiles.cleanUpAndExit(2)
                }
            }
        }, box)
        pthread_detach(thread)
    }

    /// The process's resident memory, from /proc/self/statm (0 when it cannot be read).
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(fd, &buffer, buffer.count - 1)
        guard count > 0 else { return 0 }
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The manifest as a safe run takes it: `decode` stages get `max-pixels` capped to `maxPixels`
    /// (added when not given; a larger value given is refused when the pipeline is checked).
    func prepared(_ manifest: Manifest) -> Manifest {
        guard safe else { return manifest }
        var manifest = manifest
        for i in manifest.stages.indices where manifest.stages[i].stage == "decode" {
            if !manifest.stages[i].with.contains(where: { $0.0 == "max-pixels" }) {
                manifest.stages[i].with.append(("max-pixels", .number(Double(Self.maxPixels))))
            }
        }
        return manifest
    }

    /// The folder a safe run writes below: the folder of `-o` (a folder itself, or the part of a
    /// template before its first `{`), canonical; nil for standard output or no `-o`.
    static func writeRoot(output: String?) -> String? {
        output.flatMap { out -> String? in
            guard out != "-" else { return nil }
            let folder = out.hasSuffix("/") || FileIO.isDirectory(out) ? out : FileIO.directory(of: out.prefix { $0 != "{" }.description + "x")
            return SafePaths.resolved(folder)
        }
    }

    /// What a safe run lets stages write while running (a plugin's `write_file`): only below the
    /// folder of `-o`, as `check` requires of the paths a manifest gives. Nil outside a safe run.
    func writeConfinement(output: String?) -> WriteConfinement? {
        guard safe else { return nil }
        let root = Self.writeRoot(output: output)
        return WriteConfinement(folder: root) { path in
            root.map { SafePaths.isBelow(path, root: $0, creating: true) } ?? false
        }
    }

    /// Checks a built pipeline against the safe run's rules: files read and written, limits.
    func check(_ pipeline: Pipeline, inputs: [String], output: String?) throws(SumiError) {
        guard safe else { return }
        let file = FileIO.fileName(of: pipeline.manifest.path)
        let readRoots = inputs.filter { $0 != "-" }.compactMap(SafePaths.canonical)
        let writeRoot = Self.writeRoot(output: output)
        for node in pipeline.nodes {
            func fail(_ parameter: String, _ message: String) -> SumiError {
                SumiError(.usage, file: file, stage: node.entry.place, parameter: parameter, "--safe: \(message)")
            }
            for (name, raw) in node.entry.with {
                guard let spec = node.descriptor.parameter(named: name),
                      let value = try? Substitution.substitute(raw, values: pipeline.values, here: pipeline.manifest.here) else { continue }
                let strings = SafePaths.strings(in: value)
                if SafePaths.involvesPath(spec.type) {
                    let writes = node.descriptor.output == .file && name == "path"
                    for path in strings {
                        if path == "-" {
                            if !writes && !inputs.contains("-") { throw fail(name, "standard input is read only when given as -i -") }
                            continue
                        }
                        if writes {
                            guard let root = writeRoot, SafePaths.isBelow(path, root: root, creating: true) else {
                                throw fail(name, "writes only below the folder of -o; refused \(MessageText.cut(path))")
                            }
                        } else {
                            guard readRoots.contains(where: { SafePaths.isBelow(path, root: $0, creating: false) }) else {
                                throw fail(name, "reads only the files given with -i (or below a folder given); refused \(MessageText.cut(path))")
                            }
                        }
                    }
                    if !writes, strings.count > Self.maxCaptures {
                        throw fail(name, "at most \(Self.maxCaptures) files per stage, got \(strings.count)")
                    }
                }
                if node.descriptor.name == "text", name == "text", let text = strings.first, text.count > Self.maxTextLength {
                    throw fail(name, "text of at most \(Self.maxTextLength) characters, got \(text.count)")
                }
                if node.descriptor.name == "decode", name == "max-pixels", case .number(let n) = value, n > Double(Self.maxPixels) {
                    throw fail(name, "at most \(Self.maxPixels) pixels, got \(formatNumber(n))")
                }
            }
        }
    }
}
