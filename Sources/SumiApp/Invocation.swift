#if canImport(Glibc)
import Glibc
#endif
import SumiEngine
import SumiKit

/// A manifest (or inline pipeline) prepared for running: loaded, its plugins loaded, `--set` applied,
/// inputs expanded, and the parameter values of each run (one run normally; one per input in batch
/// mode), already narrowed to this shard.
public struct Invocation {
    /// One planned run of the pipeline.
    public struct Run {
        /// The batch input the run is for.
        public var input: String?
        public var overrides: [String: ParamValue]
        /// The run's `output` value, when the manifest declares one.
        public var output: String?
    }

    public let manifest: Manifest
    package let registry: StageRegistry
    public let runs: [Run]
    /// Whether the pipeline was given inline rather than as a file.
    package let isInline: Bool
    /// The stage parameters the user set (for "does not apply" warnings).
    package let overrides: StageOverrides
    /// The number of inputs before sharding, and the shard (if any).
    public let totalInputs: Int
    package let shard: Shard?
    /// Every input of the batch, expanded (before sharding).
    package let items: [InputItem]
    /// For an inline pipeline, the column of each stage (by manifest index), and its manifest JSON.
    package let inlineColumns: [Int]?
    package let inlineJSON: JSONValue?
    /// What was asked, and the rules it runs under.
    public let request: RunRequest
    public let policy: RunPolicy
    /// The files and folders the policy lets runs read and write, resolved once.
    private let roots: RunPolicy.Roots
    private let inputGuard: InputGuard

    package init(request arguments: RunRequest, policy: RunPolicy, stages: [StageDefinition] = [],
                 warn: @escaping (String) -> Void = { _ in }) throws(SumiError) {
        let target = arguments.pipeline
        registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths, configured: arguments.configuredPlugins,
                                             stages: stages, warn: warn)
        var manifest: Manifest
        var overrides = StageOverrides()
        if InlinePipeline.isInline(target) {
            let parsed = try InlinePipeline.parse(target, registry: registry)
            manifest = parsed.manifest
            inlineColumns = parsed.columns
            inlineJSON = parsed.json
            isInline = true
            overrides.markAll(in: manifest)
            // A safe run caps decoding for a one-line pipeline as for a manifest file.
            manifest = policy.prepared(manifest, registry: registry)
        } else {
            manifest = policy.prepared(try ManifestLoader.load(path: InstalledPipelines.path(for: target)), registry: registry)
            try ManifestPlugins.load(manifest, into: registry, validating: arguments.validating, policy: policy,
                                     pluginFolders: ManifestPlugins.folders(arguments.pluginPaths, configured: arguments.configuredPlugins))
            isInline = false
            inlineColumns = nil
            inlineJSON = nil
        }
        let file = FileIO.fileName(of: manifest.path)
        if arguments.batch.shardBy != nil, arguments.batch.shard == nil {
            throw SumiError.usage("--shard-by chooses how --shard splits the inputs; give --shard too")
        }
        shard = try arguments.batch.shard.map { (text: String) throws(SumiError) in
            try Shard.parse(text, by: arguments.batch.shardBy)
        }

        // --set: manifest parameters by name, stage parameters by ID.PARAM.
        var values: [String: ParamValue] = [:]
        var replacedReferences: [(set: String, parameters: [String])] = []
        for (name, text) in arguments.settings {
            if name.contains(".") {
                let replaced = try overrides.apply(name, text, to: &manifest, registry: registry, file: file)
                if !replaced.isEmpty { replacedReferences.append((name, replaced)) }
                continue
            }
            guard let param = manifest.parameter(named: name) else {
                let known = manifest.params.map(\.name)
                let ids = manifest.stages.compactMap(\.id)
                let stageHint = ids.isEmpty ? "" : "; a stage parameter is set with ID.PARAM=VALUE (ids: \(ids.joined(separator: ", ")))"
                throw SumiError(.usage, file: file, parameter: name, "--set names an undeclared parameter\(NameSuggestion.hint(name, in: known)) (declared: \(known.isEmpty ? "none" : known.joined(separator: ", ")))\(stageHint)")
            }
            do { values[name] = try param.type.parse(text: text) } catch {
                throw SumiError(.usage, file: file, parameter: name, "--set: expected \(error.expected), got \(error.found)")
            }
        }
        if arguments.output != nil, manifest.parameter(named: "output") == nil {
            throw SumiError(.usage, file: file, "-o given, but the \(isInline ? "pipeline has no encode stage without a path" : "manifest declares no \"output\" parameter")")
        }

        var items: [InputItem] = []
        if !arguments.inputs.isEmpty {
            guard manifest.parameter(named: "input") != nil else {
                throw SumiError(.usage, file: file, "-i given, but the \(isInline ? "pipeline has no decode stage without a path" : "manifest declares no \"input\" parameter")")
            }
            let expansion = InputExpansion(recursive: arguments.batch.recursive, strict: arguments.batch.strict, warn: warn,
                                           formats: registry.formats)
            items = try expansion.expand(arguments.inputs)
            guard !items.isEmpty else { throw SumiError.usage("-i: no input images found") }
        }
        self.items = items
        self.request = arguments
        self.policy = policy
        var roots = policy.roots(items: items, inputs: arguments.inputs + arguments.readable, output: arguments.output)
        roots.opened = arguments.opened
        self.roots = roots
        inputGuard = InputGuard(items: items)
        var userGiven = Set(values.keys)
        if !items.isEmpty { userGiven.insert("input") }
        if arguments.output != nil { userGiven.insert("output") }
        overrides.markReferences(to: userGiven, in: manifest)
        // `--set photo.path=X` replaces the stage's "${input}": the -i inputs no longer reach it.
        for (set, parameters) in replacedReferences {
            for parameter in Set(parameters).sorted() where userGiven.contains(parameter) {
                let option = parameter == "input" && !items.isEmpty ? "-i"
                    : parameter == "output" && arguments.output != nil ? "-o" : "--set \(parameter)"
                warn("--set \(set) replaces the stage's \"${\(parameter)}\", so the value of \(option) is not used by that stage")
            }
        }
        self.overrides = overrides

        let plan = try Self.plan(manifest: manifest, items: items, output: arguments.output, values: values, file: file)
        totalInputs = plan.count
        self.manifest = manifest
        if let shard {
            // A run per input follows the inputs' order, so its position is the input's.
            runs = plan.enumerated().filter { position, run in
                run.input.map { shard.contains(position: position, path: $0) } ?? (shard.index == 1)
            }.map(\.element)
        } else {
            runs = plan
        }
    }

    /// The pipeline of one planned run, checked in one order wherever a run is prepared (run,
    /// validate, a served request): its values, then the policy's confinement and limits (before any
    /// stage is made, whose own checks would tell whether a file exists), then the build (whole-graph
    /// validation), then whether the output's name fits what writes it (`OutputFormatCheck`), then
    /// the batch's input guard. `overrides` replaces the run's values (validate's stand-ins for a
    /// template). Errors are placed in an inline pipeline's columns.
    public func pipeline(for run: Run, overrides: [String: ParamValue]? = nil) throws(SumiError) -> Pipeline {
        do throws(SumiError) {
            let values = try PipelineBuilder.parameterValues(manifest, overrides: overrides ?? run.overrides)
            try policy.check(manifest, values: values, registry: registry, roots: roots, inputs: request.inputs + request.readable)
            let pipeline = try PipelineBuilder(registry: registry).build(manifest, values: values)
            try OutputFormatCheck.check(pipeline, formats: registry.formats)
            try inputGuard.check(pipeline)
            return pipeline
        } catch {
            throw locate(error)
        }
    }

    /// The runs for `items`: one run with every input when `input` is a list; otherwise one run per
    /// input, outputs from the `-o` (or default) template, and no two runs writing one file.
    package static func plan(manifest: Manifest, items: [InputItem], output: String?, values: [String: ParamValue],
                     file: String) throws(SumiError) -> [Run] {
        var overrides = values
        let outputParam = manifest.parameter(named: "output")
        var defaultOutput: String?
        if case .path(let d)? = outputParam?.defaultValue { defaultOutput = d }
        if case .string(let d)? = outputParam?.defaultValue { defaultOutput = d }
        if let given = overrides["output"] { defaultOutput = given.description }

        if let input = manifest.parameter(named: "input"), case .list(let element) = input.type, !items.isEmpty {
            var list: [ParamValue] = []
            for item in items {
                do { list.append(try element.parse(text: item.path)) } catch {
                    throw SumiError(.usage, file: file, parameter: "input", "-i: expected \(error.expected), got \(error.found)")
                }
            }
            overrides["input"] = .list(list)
            if let output { overrides["output"] = .path(output) }
            return [Run(input: nil, overrides: overrides, output: output ?? defaultOutput)]
        }
        if let input = manifest.parameter(named: "input"), !items.isEmpty {
            switch input.type {
            case .path, .string: break
            default: throw SumiError(.usage, file: file, parameter: "input", "-i cannot set a parameter of type \(input.type)")
            }
        }

        // No -i: one run on the default input (a template output is filled from it).
        if items.isEmpty {
            let chosen = output ?? defaultOutput
            if let chosen, outputParam != nil {
                var resolved = chosen
                if OutputTemplate.isTemplate(chosen) {
                    let template = try OutputTemplate(chosen, origin: output != nil ? "-o" : "the default output")
                    let inputValue = overrides["input"] ?? manifest.parameter(named: "input")?.defaultValue
                    // Without an input the run stops at "input is required"; the template stays as written.
                    if case .path(let p)? = inputValue {
                        resolved = try template.render(InputItem(path: p, relativeDirectory: ""), number: 1)
                    }
                }
                if output != nil || resolved != chosen { overrides["output"] = .path(resolved) }
                return [Run(input: nil, overrides: overrides, output: resolved)]
            }
            return [Run(input: nil, overrides: overrides, output: nil)]
        }

        let standardInputs = items.filter { $0.path == "-" }.count
        if standardInputs > 1 {
            throw SumiError(.usage, file: file, parameter: "input", "-i -: standard input can be read only once")
        }
        guard outputParam != nil else {
            return items.map { Run(input: $0.path, overrides: overrides.merging(["input": .path($0.path)]) { $1 }, output: nil) }
        }
        // One input and a plain file: that file.
        let chosen = output ?? defaultOutput
        if items.count == 1, let chosen, !OutputTemplate.isTemplate(chosen), !Self.namesFolder(chosen) {
            overrides["input"] = .path(items[0].path)
            if let output { overrides["output"] = .path(output) }
            return [Run(input: items.count == 1 && items[0].path != "-" ? items[0].path : nil, overrides: overrides, output: chosen)]
        }
        let template = try Self.batchTemplate(output, defaultOutput: defaultOutput, file: file)
        var runs: [Run] = []
        var outputs: [String: String] = [:]
        for (number, item) in items.enumerated() {
            let path = try template.render(item, number: number + 1)
            // Two runs writing one file would race, and one result would silently be lost.
            if let first = outputs[path] {
                if first == item.path {
                    throw SumiError(.usage, file: file, parameter: "input", "\(item.path) is named twice among the inputs; it would be processed twice into \(path)")
                }
                let advice = FileIO.fileName(of: first) == FileIO.fileName(of: item.path)
                    ? "add {dir} (with --recursive) or {n} to the template"
                    : "use {name} (the whole file name) or {n}"
                throw SumiError(.usage, file: file, parameter: "output",
                                "\(template.text) gives \(path) for both \(first) and \(item.path); \(advice)")
            }
            outputs[path] = item.path
            var o = overrides
            o["input"] = .path(item.path)
            o["output"] = .path(path)
            runs.append(Run(input: item.path, overrides: o, output: path))
        }
        return runs
    }

    /// An error of building this pipeline, placed at its column when the pipeline is inline.
    package func locate(_ error: SumiError) -> SumiError {
        inlineColumns.map { InlinePipeline.locate(error, columns: $0) } ?? error
    }

    /// An existing folder, or a path ending in `/`.
    package static func namesFolder(_ path: String) -> Bool {
        path != "-" && (path.hasSuffix("/") || FileIO.isDirectory(path))
    }

    /// In batch mode the output must be a folder or a template with tokens.
    package static func batchTemplate(_ output: String?, defaultOutput: String?, file: String) throws(SumiError) -> OutputTemplate {
        let origin = output != nil ? "-o" : "the default output"
        guard let chosen = output ?? defaultOutput else {
            throw SumiError(.usage, file: file, "several inputs run the pipeline once each: give -o a folder or a template with {stem} or {name}")
        }
        if OutputTemplate.isTemplate(chosen) { return try OutputTemplate(chosen, origin: origin) }
        if namesFolder(chosen) {
            return try OutputTemplate(OutputTemplate.forFolder(chosen, defaultOutput: defaultOutput), origin: origin)
        }
        if output == nil {
            throw SumiError(.usage, file: file, "several inputs run the pipeline once each: give -o a folder or a template with {stem} or {name} (the default output \(chosen) names one file)")
        }
        throw SumiError(.usage, file: file, "several inputs run the pipeline once each: -o \(chosen) must be an existing folder or a template with {stem} or {name}")
    }
}

extension String {
    package func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
