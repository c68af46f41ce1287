#if canImport(Glibc)
import Glibc
#endif
import SumiCodecs
import SumiEngine
import SumiKit

/// What runs of a session may do: one value, made by the program that runs pipelines (the command
/// line from `--safe`, `--allow-manifest-plugins` and the environment; `sumi serve`'s workers from
/// the server's options), handed to the session and never read from a global.
///
/// The safe preset (`RunPolicy.safe`) is for manifests written by others, as a service runs them:
/// no manifest plugins, reads only below the inputs, writes only below the folder of the output (or
/// to standard output; a plugin's `write_file` is checked as it writes, through
/// `writeConfinement`), every parameter held to the limit its stage declares
/// (`ParameterSpec.safeMax`: text length, decode's own cap), at most `maxCaptures` files a stage,
/// every image a stage makes held to `PixelLimits.safe`, and a time and memory budget watched while
/// the process runs (`RunWatchdog`). Every violation found before the run is a usage error naming the
/// place; the budget ends a run with exit 2 and removes its temporary files.
public struct RunPolicy: Sendable {
    /// Whether the safe rules hold (`--safe`, `SUMI_SAFE=1`, every `sumi serve` worker).
    public var safe = false
    /// Whether a manifest's plugins outside the configured plugin folders may load (never in a safe run).
    public var allowManifestPlugins = false
    /// The pixel limits of every stage (`RunOptions.limits`).
    public var limits = PixelLimits.standard
    /// Wall time of a whole invocation, in seconds, and its resident memory, in bytes: watched in a
    /// safe run.
    public var seconds = RunPolicy.maxSeconds
    public var memoryBytes = RunPolicy.maxResident
    /// The most bytes of one file a stage writes (`sumi serve --max-answer`); nil: no limit.
    public var maxOutputBytes: Int?

    /// The most pixels one decoded image may have in a safe run (`decode` declares it as
    /// `max-pixels`' safe limit; `sumi serve` starts from it).
    public static let maxPixels = DecodeStage.safeMaxPixels
    /// The most files one `decode` stage may read (captures for `stitch`).
    public static let maxCaptures = 64
    /// Wall time of a whole safe invocation, in seconds (`SUMI_SAFE_SECONDS` may lower it).
    public static let maxSeconds = 300
    /// Resident memory of a safe run, in bytes (`SUMI_SAFE_MEMORY_MB` may lower it).
    public static let maxResident = 4 << 30
    /// Address space of a safe run, in bytes: a last backstop far behind the resident limit (an
    /// allocation past it would fail inside a library).
    public static let maxAddressSpace = 16 << 30

    public init() {}

    /// The policy a process's environment gives: `SUMI_MAX_PIXELS` (`RunOptions.environment`), and
    /// in a safe run `PixelLimits.safe` (which the environment may lower, never raise),
    /// `SUMI_SAFE_SECONDS` and `SUMI_SAFE_MEMORY_MB` (lower only).
    public static func fromEnvironment(safe: Bool, allowManifestPlugins: Bool = false) -> RunPolicy {
        var policy = RunPolicy()
        policy.safe = safe
        policy.allowManifestPlugins = allowManifestPlugins
        policy.limits = RunOptions.environment.limits
        guard safe else { return policy }
        policy.limits.maxPixels = min(policy.limits.maxPixels, PixelLimits.safe.maxPixels)
        policy.limits.maxWidth = min(policy.limits.maxWidth, PixelLimits.safe.maxWidth)
        if let n = environmentNumber("SUMI_SAFE_SECONDS") { policy.seconds = min(n, maxSeconds) }
        if let n = environmentNumber("SUMI_SAFE_MEMORY_MB") { policy.memoryBytes = min(n, maxResident >> 20) << 20 }
        return policy
    }

    /// `SUMI_SAFE` as the command line reads it: 1, yes or true.
    public static var safeFromEnvironment: Bool {
        getenv("SUMI_SAFE").map { ["1", "yes", "true"].contains(String(cString: $0).lowercased()) } ?? false
    }

    private static func environmentNumber(_ name: String) -> Int? {
        guard let env = getenv(name), let n = Int(String(cString: env)), n >= 1 else { return nil }
        return n
    }

    /// This policy with its pixel count lowered to `maxPixels` (`sumi serve --max-pixels`).
    public func lowering(maxPixels: Int?) -> RunPolicy {
        var policy = self
        if let maxPixels { policy.limits.maxPixels = max(1, min(limits.maxPixels, maxPixels)) }
        return policy
    }

    /// The options of a run under this policy.
    public var runOptions: RunOptions {
        var options = RunOptions.environment
        options.limits = limits
        options.maxOutputBytes = maxOutputBytes
        return options
    }

    /// Starts the budget of a safe run (nothing otherwise): `report` says what passed it, just
    /// before the process ends with exit 2.
    public func startWatch(report: @escaping @Sendable (String) -> Void) throws(SumiError) {
        guard safe else { return }
        do {
            try RunWatchdog.start(seconds: seconds, memoryBytes: memoryBytes, addressSpaceBytes: Self.maxAddressSpace, status: 2) { exceeded in
                switch exceeded {
                case .time(let seconds):
                    report("--safe: the run took longer than its limit of \(seconds) s; stopped")
                case .memory(let used, let limit):
                    report("--safe: the run used \(used >> 20) MB of memory, more than its limit of \(limit >> 20) MB; stopped")
                }
            }
        } catch {
            // A safe run never goes on without the watch on its limits.
            throw SumiError(.internal, "--safe: could not start the thread that enforces the time and memory limits: \(error.reason)")
        }
    }

    /// The manifest as a safe run takes it: every number parameter with a declared safe limit
    /// (`ParameterSpec.safeMax`, such as `decode`'s `max-pixels`) that the manifest does not give gets
    /// that limit (a larger value given is refused when the pipeline is checked).
    package func prepared(_ manifest: Manifest, registry: StageRegistry) -> Manifest {
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
    package static func writeRoot(output: String?) -> String? {
        output.flatMap { out -> String? in
            guard out != "-" else { return nil }
            let folder = out.hasSuffix("/") || FileIO.isDirectory(out) ? out : FileIO.directory(of: out.prefix { $0 != "{" }.description + "x")
            return SafePaths.resolved(folder)
        }
    }

    /// What a safe run lets stages write while running (a plugin's `write_file`): only below the
    /// folder of `-o`, as `check` requires of the paths a manifest gives. Nil outside a safe run.
    package func writeConfinement(output: String?) -> WriteConfinement? {
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
    package func check(_ manifest: Manifest, values: [String: ParamValue], registry: StageRegistry, roots: Roots,
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
