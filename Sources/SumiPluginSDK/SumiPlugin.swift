@_exported import SumiKit
import CSumiPlugin
import Glibc

/// Exports Swift `Stage` types through Sumi's C plugin ABI (`sumi_plugin.h`).
///
/// A plugin library written in Swift declares its stages exactly like the built-in ones and exports
/// them from its one entry point:
///
/// ```swift
/// import SumiPluginSDK
///
/// @_cdecl("sumi_plugin_init")
/// public func sumiPluginInit(_ host: UnsafeRawPointer?, _ out: UnsafeMutableRawPointer?) -> Int32 {
///     SumiPlugin.export(name: "sepia-tools", version: "1.0.0", stages: [Sepia.self], host: host, into: out)
/// }
/// ```
///
/// The SDK describes each stage to the host as JSON, checks the parameters the host passes with the
/// stage's own descriptor (`ParameterChecker`), wraps the host's pixel buffers as `Image` values and
/// copies the result into the buffer the host allocates. Errors a stage throws travel back as
/// messages; the host shows them like a built-in stage's. A stage type that is a `BandStage`
/// gets the version 2 band callbacks, so a streamed pipeline runs it band by band (the deprecated
/// `BandProcessing` adapter gets them too).
public enum SumiPlugin {
    /// The ABI version this SDK exports to a host that loads it (a version 1 host gets version 1
    /// tables: images in, one image out).
    public static let abiVersion: UInt32 = SUMI_PLUGIN_ABI_VERSION
    /// The version exported to hosts that know only version 1.
    static let abiVersion1: UInt32 = 1
    /// The size of the first version 2 `sumi_api` (up to `new_layer_from`), which every version 2 host has.
    static let apiBaseSize = (MemoryLayout<sumi_api>.offset(of: \sumi_api.new_layer_from) ?? 0)
        + MemoryLayout<UnsafeRawPointer>.size

    /// Exports `stages` (Swift `Stage` types) as the plugin `name` `version`. Returns the status code
    /// `sumi_plugin_init` must return.
    public static func export(name: String, version: String, licence: String = "", description: String = "",
                              stages: [any Stage.Type],
                              host: UnsafeRawPointer?, into out: UnsafeMutableRawPointer?) -> Int32 {
        export(name: name, version: version, licence: licence, description: description,
               definitions: stages.map { definition($0) }, bands: stages.map(ExportedStageV2.Bands.init),
               host: host, into: out)
    }

    /// Exports stages given as definitions (for stages whose descriptor is only known at run time, or a
    /// built-in family's `stages`). Their instances stream where they are `BandStage`s and the host
    /// has `band_start`; the older band callbacks (`band_begin`, of the deprecated `BandProcessing`)
    /// are offered for types exported by type.
    public static func export(name: String, version: String, licence: String = "", description: String = "",
                              definitions: [StageDefinition],
                              host: UnsafeRawPointer?, into out: UnsafeMutableRawPointer?) -> Int32 {
        export(name: name, version: version, licence: licence, description: description, definitions: definitions,
               bands: definitions.map { _ in .unknown }, host: host, into: out)
    }

    /// `bands[i]`: which band callbacks `definitions[i]`'s instances can take.
    private static func export(name: String, version: String, licence: String, description: String,
                               definitions: [StageDefinition], bands: [ExportedStageV2.Bands],
                               host: UnsafeRawPointer?, into out: UnsafeMutableRawPointer?) -> Int32 {
        guard let out else { return Int32(SUMI_ERROR_INTERNAL.rawValue) }
        // A host reports its ABI version first. Version 2 hosts get every value kind and typed
        // parameters; a version 1 host (or none, in tests) gets the version 1 tables.
        if let host, host.load(as: UInt32.self) >= SUMI_PLUGIN_ABI_VERSION {
            let table = host.assumingMemoryBound(to: sumi_host.self)
            // The SDK calls only the functions of the first version 2 api, so a host with that much
            // (or more: a newer host appends functions) will do.
            guard Int(table.pointee.size) >= MemoryLayout<sumi_host>.size, let api = table.pointee.api,
                  Int(api.pointee.size) >= apiBaseSize else { return Int32(SUMI_ERROR_ABI.rawValue) }
            out.assumingMemoryBound(to: UnsafePointer<sumi_plugin>?.self).pointee =
                UnsafePointer(makePluginTableV2(name: name, version: version, licence: licence, description: description,
                                                definitions: definitions, api: api, bands: bands,
                                                extended: HostAPI.hasImageSize(api)))
            return Int32(SUMI_OK.rawValue)
        }
        if let host, host.load(as: UInt32.self) < abiVersion1 { return Int32(SUMI_ERROR_ABI.rawValue) }
        out.assumingMemoryBound(to: UnsafePointer<sumi_plugin_v1>?.self).pointee =
            UnsafePointer(makePluginTable(name: name, version: version, definitions: definitions))
        return Int32(SUMI_OK.rawValue)
    }

    /// The version 2 tables. The stages go in an array of structs (`stages`), which every version 2
    /// host reads, rather than the list of pointers (`stage_list`) hosts before 0.3.0 do not know.
    /// The host steps through the array by the size its first entry declares and requires every
    /// entry to declare the same: a plugin none of whose stages streams
    /// exports the first version 2 layout (`ExportedStageV2.baseSize` bytes per stage, which hosts
    /// from before the band callbacks read too); one with a (deprecated) `BandProcessing` stage exports whole
    /// `sumi_stage` tables, the band callbacks left NULL on the stages that do not stream. A host
    /// with `image_size` (`extended`) gets whole tables for every stage, with `port_access` and,
    /// where the descriptor allows bands, `band_start`: each instance then says whether it streams
    /// (a `BandStage` such as `blend`, exported by definition, does).
    private static func makePluginTableV2(name: String, version: String, licence: String, description: String,
                                          definitions: [StageDefinition], api: UnsafePointer<sumi_api>, bands: [ExportedStageV2.Bands],
                                          extended: Bool) -> UnsafeMutablePointer<sumi_plugin> {
        let entrySize = bands.contains(.bandProcessing) || extended ? MemoryLayout<sumi_stage>.size : ExportedStageV2.baseSize
        let stages = UnsafeMutableRawPointer.allocate(byteCount: max(1, definitions.count) * entrySize,
                                                      alignment: MemoryLayout<sumi_stage>.alignment)
        for (index, definition) in definitions.enumerated() {
            var table = ExportedStageV2.makeTable(for: definition, api: api, bands: bands[index], extended: extended,
                                                  size: entrySize)
            withUnsafeBytes(of: &table) { bytes in
                (stages + index * entrySize).copyMemory(from: bytes.baseAddress!, byteCount: entrySize)
            }
        }
        let plugin = UnsafeMutablePointer<sumi_plugin>.allocate(capacity: 1)
        var table = sumi_plugin()
        table.abi_version = SUMI_PLUGIN_ABI_VERSION
        table.size = UInt32(MemoryLayout<sumi_plugin>.size)
        table.name = UnsafePointer(strdup(name))
        table.version = UnsafePointer(strdup(version))
        table.licence = UnsafePointer(strdup(licence))
        table.description = UnsafePointer(strdup(description))
        table.stage_count = UInt32(definitions.count)
        table.stages = UnsafePointer(stages.assumingMemoryBound(to: sumi_stage.self))
        plugin.initialize(to: table)
        return plugin
    }

    private static func definition<S: Stage>(_ type: S.Type) -> StageDefinition { StageDefinition(type) }

    /// Builds the `sumi_plugin` table. The ABI requires it to live as long as the process (the host
    /// never unloads a plugin), so it is allocated once and never freed.
    private static func makePluginTable(name: String, version: String,
                                        definitions: [StageDefinition]) -> UnsafeMutablePointer<sumi_plugin_v1> {
        let stages = UnsafeMutablePointer<sumi_stage_v1>.allocate(capacity: max(1, definitions.count))
        for (index, definition) in definitions.enumerated() {
            (stages + index).initialize(to: ExportedStage.makeTable(for: definition))
        }
        let plugin = UnsafeMutablePointer<sumi_plugin_v1>.allocate(capacity: 1)
        var table = sumi_plugin_v1()
        table.abi_version = abiVersion1
        table.size = UInt32(MemoryLayout<sumi_plugin_v1>.size)
        table.name = UnsafePointer(strdup(name))
        table.version = UnsafePointer(strdup(version))
        table.stage_count = UInt32(definitions.count)
        table.stages = UnsafePointer(stages)
        plugin.initialize(to: table)
        return plugin
    }
}
