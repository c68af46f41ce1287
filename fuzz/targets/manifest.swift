import SumiKit
import SumiCodecs
import SumiCompose
import SumiEngine
import SumiPage
import SumiText
import SumiTransform

/// The registry of built-in stages, made once.
let registry: StageRegistry? = {
    let registry = StageRegistry()
    for family in [CodecsStages.stages, TransformStages.stages, TextStages.stages, ComposeStages.stages, PageStages.stages] {
        do { try registry.register(family) } catch { return nil }
    }
    return registry
}()

/// The manifest parser and the whole-graph validation on any bytes. Nothing runs: only
/// `ManifestLoader.parse` and `PipelineBuilder.build` (with the stages' `init(parameters:)`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let bytes = input.rest()
    guard let registry, let manifest = try? ManifestLoader.parse(bytes, path: "/nonexistent/fuzz.json"),
          let values = try? PipelineBuilder.parameterValues(manifest, overrides: [:]) else { return 0 }
    _ = try? PipelineBuilder(registry: registry).build(manifest, values: values)
    return 0
}
