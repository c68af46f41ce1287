import ComposeFamily
import SumiPluginSDK

/// Exports the Compose family's own `stages`, exactly as the built-in registry gets them.
@_cdecl("sumi_plugin_init")
public func sumiPluginInit(_ host: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    SumiPlugin.export(name: "compose", version: "parity", licence: "same as Sumi",
                      description: "The built-in place and blend stages, through the plugin ABI",
                      definitions: ComposeStages.stages, host: host, into: out)
}
