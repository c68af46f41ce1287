import SumiPluginSDK

/// The library's one exported symbol: Sumi calls it after loading the library.
@_cdecl("sumi_plugin_init")
public func sumiPluginInit(_ host: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
    SumiPlugin.export(name: "sepia-tools", version: "1.0.0", stages: [Sepia.self], host: host, into: out)
}
