import SumiApp
import SumiEngine
import SumiKit

/// `sumi schema`: a JSON Schema (draft 2020-12) of manifests, with every registered stage's
/// parameters generated from its descriptor, so an editor completes and checks a manifest that names
/// it in `"$schema"`.
struct SchemaCommand {
    let arguments: Arguments

    func execute() throws(SumiError) -> Int32 {
        let registry = try StageCatalog.registry(pluginPaths: arguments.pluginPaths, warn: { Terminal.warning($0) })
        Terminal.standardOutput(ManifestSchema.schema(registry.all.map(\.descriptor)).serialized() + "\n")
        return 0
    }
}
