#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// A manifest prepared for running: loaded, its plugins loaded, and the parameter values of each run
/// (one run normally; one per input in batch mode).
struct Invocation {
    let manifest: Manifest
    let registry: StageRegistry
    /// Parameter overrides per run, and the batch input each run is for.
    let runs: [(input: String?, overrides: [String: ParamValue])]

    init(arguments: Arguments) throws(SumiError) {
        let path = arguments.target ?? ""
        manifest = SafeMode.current.prepared(try ManifestLoader.load(path: path))
        registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths)
        try ManifestPlugins.load(manifest, into: registry, command: arguments.command,
                                 pluginFolders: ManifestPlugins.folders(arguments.pluginPaths))
        let file = FileIO.fileName(of: path)

        var overrides: [String: ParamValue] = [:]
        for (name, text) in arguments.sets {
            guard let param = manifest.parameter(named: name) else {
                let known = manifest.params.map(\.name).joined(separator: ", ")
                throw SumiError(.usage, file: file, parameter: name, "--set names an undeclared parameter (declared: \(known.isEmpty ? "none" : known))")
            }
            do { overrides[name] = try param.type.parse(text: text) } catch {
                throw SumiError(.usage, file: file, parameter: name, "--set: expected \(error.expected), got \(error.found)")
            }
        }
        if arguments.output != nil, manifest.parameter(named: "output") == nil {
            throw SumiError(.usage, file: file, "-o given, but the manifest declares no \"output\" parameter")
        }

        var batchInputs: [String]?
        if !arguments.inputs.isEmpty {
            guard let input = manifest.parameter(named: "input") else {
                throw SumiError(.usage, file: file, "-i given, but the manifest declares no \"input\" parameter")
            }
            switch input.type {
            case .path, .string:
                if arguments.inputs.count == 1 { overrides["input"] = .path(arguments.inputs[0]) }
                else { batchInputs = arguments.inputs }
            case .list(let element):
                var items: [ParamValue] = []
                for text in arguments.inputs {
                    do { items.append(try element.parse(text: text)) } catch {
                        throw SumiError(.usage, file: file, parameter: "input", "-i: expected \(error.expected), got \(error.found)")
                    }
                }
                overrides["input"] = .list(items)
            default:
                throw SumiError(.usage, file: file, parameter: "input", "-i cannot set a parameter of type \(input.type)")
            }
        }

        guard let batch = batchInputs else {
            if let output = arguments.output {
                // A batch template given a single input (a glob that matched one file) names its output too.
                var resolved = output
                if output.contains("{stem}") || output.contains("{name}"),
                   let input = overrides["input"] ?? manifest.parameter(named: "input")?.defaultValue {
                    switch input {
                    case .path(let p), .string(let p): resolved = Self.expand(output, input: p)
                    default: break
                    }
                }
                overrides["output"] = .path(resolved)
            }
            runs = [(nil, overrides)]
            return
        }
        if batch.filter({ $0 == "-" }).count > 1 {
            throw SumiError(.usage, file: file, parameter: "input", "-i -: standard input can be read only once")
        }
        let template = try Self.batchTemplate(arguments.output, manifest: manifest, file: file)
        var planned: [(input: String?, overrides: [String: ParamValue])] = []
        var outputs: [String: String] = [:]
        for input in batch {
            var o = overrides
            o["input"] = .path(input)
            if manifest.parameter(named: "output") != nil {
                let output = Self.expand(template, input: input)
                // Two runs writing one file would race, and one result would silently be lost.
                if let first = outputs[output] {
                    throw SumiError(.usage, file: file, parameter: "output",
                                    "-o \(template) gives \(output) for both \(first) and \(input); use {name} or separate folders")
                }
                outputs[output] = input
                o["output"] = .path(output)
            }
            planned.append((input, o))
        }
        runs = planned
    }

    /// In batch mode `-o` must be a folder or a template containing `{stem}` or `{name}`.
    static func batchTemplate(_ output: String?, manifest: Manifest, file: String) throws(SumiError) -> String {
        guard manifest.parameter(named: "output") != nil else { return "" }
        guard let output else {
            throw SumiError(.usage, file: file, "several -i run the pipeline once per input: give -o a folder or a template with {stem} or {name}")
        }
        if output.contains("{stem}") || output.contains("{name}") { return output }
        if FileIO.isDirectory(output) || output.hasSuffix("/") {
            var ext = ""
            if case .path(let d)? = manifest.parameter(named: "output")?.defaultValue { ext = FileIO.fileExtension(of: d) }
            let folder = output.hasSuffix("/") ? String(output.dropLast()) : output
            return ext.isEmpty ? "\(folder)/{name}" : "\(folder)/{stem}.\(ext)"
        }
        throw SumiError(.usage, file: file, "several -i run the pipeline once per input: -o \(output) must be an existing folder or a template with {stem} or {name}")
    }

    static func expand(_ template: String, input: String) -> String {
        var out = template.replacingAll("{stem}", with: FileIO.stem(of: input))
        out = out.replacingAll("{name}", with: FileIO.fileName(of: input))
        return out
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
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
