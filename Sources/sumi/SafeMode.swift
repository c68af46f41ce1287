#if canImport(Glibc)
import Glibc
#endif
import SumiCodecs
import SumiEngine
import SumiKit

/// `--safe` (or `SUMI_SAFE=1`): running manifests written by others, as a service does.
///
/// A safe run loads no manifest plugins, reads files only below the inputs given with `-i`,
/// writes only below the folder of `-o` (or to standard output; a plugin's `write_file` is checked as
/// it writes, through `writeConfinement`), holds every parameter to the limit its stage declares
/// (`ParameterSpec.safeMax`: decoded pixels, text length), and has limits on the number of captures,
/// its wall time and its address space (`setrlimit`). Every
/// violation found before the run is exit 2 with a message naming the place; the time limit ends a
/// run with exit 2 and removes its temporary files. Also parses `--allow-manifest-plugins`.
struct SafeMode: Sendable {
    var safe = false
    var allowManifestPlugins = false

    /// The most pixels one decoded image may have (`decode` declares it as `max-pixels`' safe limit;
    /// `sumi serve` starts from it).
    static let maxPixels = DecodeStage.safeMaxPixels
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
            case OptionTable.safe.long: mode.safe = true
            case OptionTable.allowManifestPlugins.long: mode.allowManifestPlugins = true
            default: rest.append(argument)
            }
        }
        return (mode, rest)
    }()

    /// The options of a run in this mode: the environment's (`RunOptions.environment`), whose pixel
    /// limits a safe run lowers to `PixelLimits.safe` (never raises), and `maxPixels` lowers
    /// further (`sumi serve --max-pixels`).
    func runOptions(maxPixels: Int? = nil) -> RunOptions {
        var options = RunOptions.environment
        if safe {
            options.limits.maxPixels = min(options.limits.maxPixels, PixelLimits.safe.maxPixels)
            options.limits.maxWidth = min(options.limits.maxWidth, PixelLimits.safe.maxWidth)
        }
        if let maxPixels { options.limits.maxPixels = max(1, min(options.limits.maxPixels, maxPixels)) }
        return options
    }

    /// The wall-time limit in seconds.
    var seconds: Int {
        guard let env = getenv("SUMI_SAFE_SECONDS"), let n = Int(String(cString: env)), n >= 1 else { return Self.maxSeconds }
        return min(n, Self.maxSeconds)
    }

    /// The resident-memory limit in bytes.
    var residentLimit: Int {
        guard let env = getenv("SUMI_SAFE_MEMORY_MB"), let n = Int(String(cString: env)), n >= 1 else { return Self.maxResident }
        return min(n, Self.maxResident >> 20) << 20
    }

    /// Starts the limits of a safe run: address space, and a watchdog for the wall time and the
    /// resident memory.
    func startLimits() throws(SumiError) {
        guard safe else { return }
        // Not under AddressSanitizer: its shadow memory alone takes terabytes of address space.
        if dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil {
            var space = rlimit(rlim_cur: rlim_t(Self.maxAddressSpace), rlim_max: rlim_t(Self.maxAddressSpace))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &space)
        }
        let limits = (seconds: seconds, bytes: residentLimit)
        do {
            try PosixThreads.detach {
                let start = SafeMode.monotonicNanoseconds()
                let limit = limits.seconds * 1_000_000_000
                while true {
                    var tick = timespec(tv_sec: 0, tv_nsec: 100_000_000), left = timespec()
                    while nanosleep(&tick, &left) != 0 { tick = left }
                    // Nanoseconds, not whole seconds: a run started at x.9 s is not stopped at x+1 s.
                    if SafeMode.monotonicNanoseconds() - start >= limit {
                        Terminal.standardError("sumi: error: --safe: the run took longer than its limit of \(limits.seconds) s; stopped\n")
                        SignalCleanup.cleanUpAndExit(2)
                    }
                    let resident = SafeMode.residentBytes()
                    if resident > limits.bytes {
                        Terminal.standardError("sumi: error: --safe: the run used \(resident >> 20) MB of memory, more than its limit of \(limits.bytes >> 20) MB; stopped\n")
                        SignalCleanup.cleanUpAndExit(2)
                    }
                }
            }
        } catch {
            // A --safe run never goes on without the watch on its limits.
            throw SumiError(.run, "--safe: could not start the thread that enforces the time and memory limits: \(error.reason)")
        }
    }

    /// Monotonic time in nanoseconds.
    static func monotonicNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
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

    /// The manifest as a safe run takes it: every number parameter with a declared safe limit
    /// (`ParameterSpec.safeMax`, such as `decode`'s `max-pixels`) that the manifest does not give gets
    /// that limit (a larger value given is refused when the pipeline is checked).
    func prepared(_ manifest: Manifest, registry: StageRegistry) -> Manifest {
        guard safe else { return manifest }
        var manifest = manifest
        for i in manifest.stages.indices {
            guard let descriptor = registry.definition(named: manifest.stages[i].stage)?.descriptor else { continue }
            for spec in descriptor.parameters where spec.safeMax != nil && [.number, .integer].contains(spec.type) {
                if let limit = spec.safeMax, !manifest.stages[i].with.contains(where: { $0.0 == spec.name }) {
                    manifest.stages[i].with.append((spec.name, .number(limit)))
                }
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

    /// Checks a pipeline's manifest, with one run's values, against the safe run's rules: files read
    /// and written, limits. It runs before the stages are made, whose own checks would tell whether
    /// a file exists.
    ///
    /// Which way a path parameter's file goes is what its type declares (`.path(.reads)`,
    /// `.path(.writes)`); a path whose direction is not declared (a plugin built before directions)
    /// is checked both ways. Reads are confined to the inputs (`-i` files and what lies below `-i`
    /// folders), writes to the folder of `-o`, and files a string parameter declares it may name
    /// (`ParameterSpec.namedFile`: `text`'s font files) to the input folders (the `-i` folders, and
    /// the folders holding the `-i` files). A parameter's declared safe limit
    /// (`safeMax`) caps a number, or a string's length.
    func check(_ manifest: Manifest, values: [String: ParamValue], registry: StageRegistry, roots: Roots,
               inputs: [String]) throws(SumiError) {
        guard safe else { return }
        let file = FileIO.fileName(of: manifest.path)
        for entry in manifest.stages {
            func fail(_ parameter: String, _ message: String) -> SumiError {
                SumiError(.usage, file: file, stage: entry.place, parameter: parameter, "--safe: \(message)")
            }
            // An unknown stage is reported when the pipeline is built.
            guard let definition = registry.definition(named: entry.stage) else { continue }
            let descriptor = definition.descriptor
            for (name, raw) in entry.with {
                guard let spec = descriptor.parameter(named: name),
                      let value = try? Substitution.substitute(raw, values: values, here: manifest.here) else { continue }
                let strings = SafePaths.strings(in: value)
                if let access = spec.type.pathAccess {
                    let reads = access != .writes, writes = access != .reads
                    for path in strings {
                        if path == "-" {
                            if reads && !inputs.contains("-") { throw fail(name, "standard input is read only when given as -i -") }
                            continue
                        }
                        if writes {
                            guard let root = roots.write, SafePaths.isBelow(path, root: root, creating: true) else {
                                throw fail(name, "writes only below the folder of -o\(reads ? " (its direction is not declared: checked as a read and a write)" : ""); refused \(MessageText.cut(path))")
                            }
                        }
                        if reads {
                            guard roots.opened.contains(path) || Roots.contains(path, in: roots.reads) else {
                                throw fail(name, "reads only the files given with -i (or below a folder given)\(writes ? " (its direction is not declared: checked as a read and a write)" : ""); refused \(MessageText.cut(path))")
                            }
                        }
                    }
                    if reads, strings.count > Self.maxCaptures {
                        throw fail(name, "at most \(Self.maxCaptures) files per stage, got \(strings.count)")
                    }
                }
                if let limit = spec.safeMax {
                    if let n = value.numberValue, n > limit {
                        throw fail(name, "at most \(formatNumber(limit)) in a safe run, got \(formatNumber(n))")
                    }
                    if case .string(let text) = value, Double(text.count) > limit {
                        throw fail(name, "at most \(formatNumber(limit)) characters in a safe run, got \(text.count)")
                    }
                }
                if let namedFile = spec.namedFile, let font = strings.first.flatMap(namedFile) {
                    // One message whether the file is missing, not a font or elsewhere: a refusal
                    // must not tell an uploader which paths exist.
                    guard Roots.contains(font, in: roots.fonts) else {
                        throw fail(name, "a file this parameter names must lie below the folders of the -i inputs; refused \(MessageText.cut(font))")
                    }
                }
            }
        }
    }
}
