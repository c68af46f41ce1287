import SumiPluginSDK

/// The library's one exported symbol: Sumi calls it after loading the library. A version 2 host gets
/// ABI version 2 tables (every value kind, typed parameters, side data); a version 1 host, version 1.
@_cdecl("sumi_plugin_init")
public func sumiPluginInit(_ host: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    SumiPlugin.export(name: "sepia-tools", version: "1.1.0", licence: "MIT", description: "Tones images sepia",
                      stages: [Sepia.self], host: host, into: out)
}
