import CSumiPlugin
import Glibc
import SumiKit

/// A plugin library that has been opened and initialised: its name, version and stages, read from
/// the `sumi_plugin` table it returned. Libraries are never unloaded (a Swift plugin's code must
/// stay mapped for the life of the process), so the table stays valid and this value can be shared.
struct PluginLibrary: Sendable {
    /// The library's canonical path, used as the origin of its stages.
    let path: String
    let name: String
    let version: String
    let stages: [PluginStageEntry]

    /// Opens `path` (already canonical), calls its entry point and checks the ABI version before
    /// reading anything else from the table.
    static func open(_ path: String) throws(SumiError) -> PluginLibrary {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw SumiError.usage("\(path) is not a loadable library: \(lastLoaderError())")
        }
        guard let symbol = dlsym(handle, SUMI_PLUGIN_INIT_SYMBOL) else {
            throw SumiError.usage("\(path) is not a Sumi plugin (no \(SUMI_PLUGIN_INIT_SYMBOL))")
        }
        let entryPoint = unsafeBitCast(symbol, to: sumi_plugin_init_fn.self)

        var table: UnsafePointer<sumi_plugin>?
        var host = sumi_host()
        host.abi_version = SUMI_PLUGIN_ABI_VERSION
        host.size = UInt32(MemoryLayout<sumi_host>.size)
        let status = sumiHostVersion.withCString { version in
            host.host_version = version
            return entryPoint(&host, &table)
        }
        guard status == 0 else {
            if status == Int32(SUMI_ERROR_ABI.rawValue) {
                throw SumiError.usage("plugin \(path) does not support this sumi's plugin ABI version \(SUMI_PLUGIN_ABI_VERSION)")
            }
            throw SumiError.usage("plugin \(path) failed to initialise (\(statusName(status)))")
        }
        guard let table else { throw SumiError.usage("plugin \(path) returned no plugin description") }

        // The version is the one field every ABI version keeps at offset 0: read it alone first.
        let abiVersion = UnsafeRawPointer(table).load(as: UInt32.self)
        guard abiVersion == SUMI_PLUGIN_ABI_VERSION else {
            throw SumiError.usage("plugin \(path) was built for Sumi plugin ABI version \(abiVersion), "
                + "but this sumi supports ABI version \(SUMI_PLUGIN_ABI_VERSION)")
        }
        let declaredSize = UnsafeRawPointer(table).load(fromByteOffset: 4, as: UInt32.self)
        guard Int(declaredSize) >= MemoryLayout<sumi_plugin>.size else {
            throw SumiError.usage("plugin \(path) is malformed: its sumi_plugin table is \(declaredSize) bytes, "
                + "ABI version \(SUMI_PLUGIN_ABI_VERSION) needs \(MemoryLayout<sumi_plugin>.size)")
        }
        let plugin = table.pointee
        guard let namePointer = plugin.name else { throw SumiError.usage("plugin \(path) is malformed: it has no name") }
        let name = String(cString: namePointer)
        let version = plugin.version.map { String(cString: $0) } ?? ""
        let place = "plugin \(name) (\(path))"
        guard plugin.stage_count == 0 || plugin.stages != nil else {
            throw SumiError.usage("\(place) is malformed: \(plugin.stage_count) stages but no stage table")
        }

        var stages: [PluginStageEntry] = []
        for index in 0..<Int(plugin.stage_count) {
            guard let stageTable = plugin.stages?.advanced(by: index) else { break }
            stages.append(try readStage(stageTable, index: index, place: place, origin: path))
        }
        return PluginLibrary(path: path, name: name, version: version, stages: stages)
    }

    /// The factories to register: one per stage, with the library's path as origin.
    var factories: [StageDefinition] {
        stages.map { entry in
            StageDefinition(descriptor: entry.descriptor, origin: path) { parameters in
                try PluginStage(entry: entry, parameters: parameters)
            }
        }
    }

    private static func readStage(_ stage: UnsafePointer<sumi_stage>, index: Int, place: String,
                                  origin: String) throws(SumiError) -> PluginStageEntry {
        let declaredSize = UnsafeRawPointer(stage).load(as: UInt32.self)
        guard Int(declaredSize) >= MemoryLayout<sumi_stage>.size else {
            throw SumiError.usage("\(place) is malformed: stage #\(index) has size \(declaredSize), "
                + "expected at least \(MemoryLayout<sumi_stage>.size)")
        }
        let table = stage.pointee
        guard let json = table.descriptor_json else {
            throw SumiError.usage("\(place) is malformed: stage #\(index) has no descriptor")
        }
        let descriptor: StageDescriptor
        do { descriptor = try StageDescriptorJSON.decode(text: String(cString: json)) } catch {
            throw SumiError.usage("\(place) has a malformed descriptor for stage #\(index): \(error)")
        }
        guard table.create != nil, table.process != nil, table.destroy != nil else {
            throw SumiError.usage("\(place) is malformed: stage \"\(descriptor.name)\" lacks create, process or destroy")
        }
        for port in descriptor.inputs where port.accepts != [.image] {
            throw SumiError.usage("\(place): stage \"\(descriptor.name)\" input \"\(port.name)\" takes \(port.typeName); "
                + "plugin ABI version \(SUMI_PLUGIN_ABI_VERSION) passes images only")
        }
        guard descriptor.output == .image else {
            throw SumiError.usage("\(place): stage \"\(descriptor.name)\" produces \(descriptor.output.rawValue); "
                + "plugin ABI version \(SUMI_PLUGIN_ABI_VERSION) returns an image only")
        }
        return PluginStageEntry(table: stage, descriptor: descriptor, origin: origin)
    }

    private static func lastLoaderError() -> String {
        guard let message = dlerror() else { return "unknown loader error" }
        return String(cString: message)
    }

    /// A readable name for a `sumi_status` code.
    static func statusName(_ code: Int32) -> String {
        switch UInt32(bitPattern: code) {
        case SUMI_OK.rawValue: "ok"
        case SUMI_ERROR_INVALID_PARAMETER.rawValue: "invalid parameter"
        case SUMI_ERROR_PROCESS.rawValue: "processing error"
        case SUMI_ERROR_ABI.rawValue: "incompatible ABI"
        case SUMI_ERROR_OUT_OF_MEMORY.rawValue: "out of memory"
        case SUMI_ERROR_INTERNAL.rawValue: "internal error"
        default: "error code \(code)"
        }
    }
}

/// The version of Sumi reported to plugins in `sumi_host.host_version`.
let sumiHostVersion = SumiVersion.string
