#if canImport(Glibc)
import Glibc
#endif
import SumiApp
import SumiCodecs
import SumiEngine
import SumiKit

/// The pipelines `sumi serve` offers, by name (the manifest's file name without `.json`): the shipped
/// ones, then those of each `--pipelines` folder (a later one replaces an earlier one of the same
/// name, so a deployment can tune a shipped pipeline).
struct PipelineCatalog: Sendable {
    /// One pipeline.
    struct Entry: Sendable {
        let name: String
        let path: String
        let manifest: Manifest
        /// The output's extension when the request names no `format` (from the `output` default).
        let outputExtension: String
    }

    let entries: [String: Entry]
    let registry: StageRegistry

    /// The folders searched, in order: the shipped pipelines (if found), then `extra`; their stages
    /// are the built-in ones and those of the plugins in `pluginPaths` (`--plugin-path`).
    static func load(extra: [String], shipped: String?, pluginPaths: [String]) throws(SumiError) -> PipelineCatalog {
        var entries: [String: Entry] = [:]
        for folder in (shipped.map { [$0] } ?? []) + extra {
            let names: [String]
            do { names = try InputExpansion.entries(of: folder) } catch {
                throw SumiError.usage("--pipelines \(folder): \(error.message)")
            }
            for file in names where file.hasSuffix(".json") {
                let path = folder + "/" + file
                let manifest = try ManifestLoader.load(path: path)
                guard manifest.plugins.isEmpty else {
                    throw SumiError(.usage, file: path, "a served pipeline loads no plugins of its own (give their folder to sumi serve with --plugin-path)")
                }
                let name = FileIO.stem(of: file)
                var ext = "png"
                if case .path(let output)? = manifest.parameter(named: "output")?.defaultValue {
                    let given = FileIO.fileExtension(of: output)
                    if !given.isEmpty { ext = given }
                }
                entries[name] = Entry(name: name, path: path, manifest: manifest, outputExtension: ext)
            }
        }
        return PipelineCatalog(entries: entries, registry: try StageCatalog.registry(pluginPaths: pluginPaths, configured: false,
                                                                                     warn: { Terminal.warning($0) }))
    }

    /// What `format=` may name: the formats `encode` writes, built-in then the `--plugin-path`
    /// plugins' (each by its name; an alias or an extension of it is taken too).
    var writableFormats: [String] {
        registry.formats.codecs.filter { $0.encoder != nil && !$0.extensions.isEmpty }.map(\.name)
    }

    /// `GET /pipelines`: every pipeline, by name.
    func listing() -> JSONValue {
        .array(entries.keys.sorted().compactMap { entries[$0].map(describe) })
    }

    /// `GET /pipelines/{name}`: the pipeline's parameters (set in the query by name), and each
    /// stage with an id, whose parameters the query sets as `ID.NAME` (their schema as `sumi schema`
    /// gives it).
    func describe(_ entry: Entry) -> JSONValue {
        let parameters: [JSONValue] = entry.manifest.params.map { param in
            var members: [(String, JSONValue)] = [("name", .string(param.name)), ("type", .string(param.type.description))]
            if let summary = param.summary { members.append(("summary", .string(summary))) }
            if let value = param.defaultValue, param.name != "input" { members.append(("default", value.json)) }
            members.append(("settable", .bool(param.name != "input" && param.name != "output")))
            return .object(members)
        }
        let stages: [JSONValue] = entry.manifest.stages.compactMap { stage in
            guard let id = stage.id else { return nil }
            var members: [(String, JSONValue)] = [("id", .string(id)), ("stage", .string(stage.stage))]
            if let definition = registry.definition(named: stage.stage) {
                members.append(("parameters", ManifestSchema.withSchema(definition.descriptor)))
            }
            return .object(members)
        }
        var members: [(String, JSONValue)] = [("name", .string(entry.name))]
        if let summary = entry.manifest.summary { members.append(("summary", .string(summary))) }
        members.append(("format", .string(entry.outputExtension)))
        members.append(("formats", .array(writableFormats.map(JSONValue.string))))
        members.append(("parameters", .array(parameters)))
        members.append(("stages", .array(stages)))
        return .object(members)
    }
}
