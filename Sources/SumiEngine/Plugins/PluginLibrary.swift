import CSumiPlugin
import Glibc
import SumiKit

/// A plugin library that has been opened and initialised: its name, version, licence, description,
/// stages and formats, read from the `sumi_plugin` table it returned (version 2, or `sumi_plugin_v1`).
/// Libraries are never unloaded (a Swift plugin's code must stay mapped for the life of the process),
/// so the tables stay valid and this value can be shared.
struct PluginLibrary: Sendable {
    /// The library's canonical path, used as the origin of its stages.
    let path: String
    let abiVersion: UInt32
    let name: String
    let version: String
    let licence: String
    let description: String
    /// The stages to register, with the library's path as origin.
    let definitions: [StageDefinition]
    /// The image formats it reads or writes (version 2).
    let formats: [ImageCodec]
    /// The stages whose table has band callbacks (they stream; version 2).
    var bandStages: [String] = []

    /// Opens `path` (already canonical), calls its entry point and checks the ABI version before
    /// reading anything else from the table.
    static func open(_ path: String) throws(SumiError) -> PluginLibrary {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw SumiError.usage("\(path) is not a loadable library: \(lastLoaderError())")
        }
        guard let symbol = dlsym(handle, SUMI_PLUGIN_INIT_SYMBOL) else {
            throw SumiError.usage("\(path) is not a Sumi plugin (no \(SUMI_PLUGIN_INIT_SYMBOL))")
        }
        return try initialise(unsafeBitCast(symbol, to: sumi_plugin_init_fn.self), path: path)
    }

    /// Calls a plugin's entry point and reads the table it returns (`open` after `dlsym`; tests call
    /// it with an entry point of their own process).
    static func initialise(_ entryPoint: sumi_plugin_init_fn, path: String) throws(SumiError) -> PluginLibrary {
        var table: UnsafePointer<sumi_plugin>?
        var initError = PluginCallError()
        var host = sumi_host()
        host.abi_version = SUMI_PLUGIN_ABI_VERSION
        host.size = UInt32(MemoryLayout<sumi_host>.size)
        host.api = PluginHostAPI.table
        let status = sumiHostVersion.withCString { version in
            host.host_version = version
            return withUnsafeMutablePointer(to: &initError.raw) { error in
                host.error = error
                return entryPoint(&host, &table)
            }
        }
        guard status == 0 else {
            if status == Int32(SUMI_ERROR_ABI.rawValue) {
                throw SumiError.usage("plugin \(path) does not support this sumi's plugin ABI version \(SUMI_PLUGIN_ABI_VERSION)"
                    + (initError.text.map { ": \($0)" } ?? ""))
            }
            throw SumiError.usage("plugin \(path) failed to initialise: \(initError.message(code: status))")
        }
        guard let table else { throw SumiError.usage("plugin \(path) returned no plugin description") }

        // The version is the one field every ABI version keeps at offset 0: read it alone first.
        let raw = UnsafeRawPointer(table)
        let abiVersion = raw.load(as: UInt32.self)
        let declaredSize = Int(raw.load(fromByteOffset: 4, as: UInt32.self))
        switch abiVersion {
        case 1:
            guard declaredSize >= MemoryLayout<sumi_plugin_v1>.size else { throw tooSmall(path, declaredSize, MemoryLayout<sumi_plugin_v1>.size, 1) }
            return try openV1(raw.assumingMemoryBound(to: sumi_plugin_v1.self).pointee, path: path)
        case SUMI_PLUGIN_ABI_VERSION:
            let baseSize = MemoryLayout<sumi_plugin>.offset(of: \sumi_plugin.stage_list) ?? MemoryLayout<sumi_plugin>.size
            guard declaredSize >= baseSize else { throw tooSmall(path, declaredSize, baseSize, 2) }
            return try openV2(PluginTables.plugin(raw, declaredSize: declaredSize), path: path)
        default:
            let accepted = SumiVersion.pluginABIVersions.map(String.init).joined(separator: " and ")
            throw SumiError.usage("plugin \(path) was built for Sumi plugin ABI version \(abiVersion), "
                + "but this sumi supports ABI versions \(accepted)")
        }
    }

    private static func tooSmall(_ path: String, _ size: Int, _ needed: Int, _ version: Int) -> SumiError {
        SumiError.usage("plugin \(path) is malformed: its sumi_plugin table is \(size) bytes, ABI version \(version) needs \(needed)")
    }

    /// The plugin's name and the place messages name it by, once its table's name and stage list
    /// are checked (the same fields in both versions).
    private static func identity(name namePointer: UnsafePointer<CChar>?, stageCount: UInt32, hasStages: Bool,
                                 path: String) throws(SumiError) -> (name: String, place: String) {
        guard let namePointer else { throw SumiError.usage("plugin \(path) is malformed: it has no name") }
        let name = String(cString: namePointer)
        let place = "plugin \(name) (\(path))"
        guard stageCount == 0 || hasStages else {
            throw SumiError.usage("\(place) is malformed: \(stageCount) stages but no stage table")
        }
        return (name, place)
    }

    /// A stage's descriptor, once its table has the three functions every stage needs.
    private static func checkedDescriptor(_ json: UnsafePointer<CChar>?, hasFunctions: Bool, index: Int,
                                          place: String) throws(SumiError) -> StageDescriptor {
        let descriptor = try readDescriptor(json, index: index, place: place)
        guard hasFunctions else {
            throw SumiError.usage("\(place) is malformed: stage \"\(descriptor.name)\" lacks create, process or destroy")
        }
        return descriptor
    }

    private static func openV1(_ plugin: sumi_plugin_v1, path: String) throws(SumiError) -> PluginLibrary {
        let (name, place) = try identity(name: plugin.name, stageCount: plugin.stage_count, hasStages: plugin.stages != nil, path: path)
        var definitions: [StageDefinition] = []
        for index in 0..<Int(plugin.stage_count) {
            guard let stage = plugin.stages?.advanced(by: index) else { break }
            let declaredSize = UnsafeRawPointer(stage).load(as: UInt32.self)
            guard Int(declaredSize) >= MemoryLayout<sumi_stage_v1>.size else {
                throw SumiError.usage("\(place) is malformed: stage #\(index) has size \(declaredSize), "
                    + "expected at least \(MemoryLayout<sumi_stage_v1>.size)")
            }
            let table = stage.pointee
            let descriptor = try checkedDescriptor(table.descriptor_json, hasFunctions: table.create != nil && table.process != nil
                                                   && table.destroy != nil, index: index, place: place)
            for port in descriptor.inputs where port.accepts != [.image] {
                throw SumiError.usage("\(place): stage \"\(descriptor.name)\" input \"\(port.name)\" takes \(port.typeName); "
                    + "plugin ABI version 1 passes images only")
            }
            guard descriptor.output == .image else {
                throw SumiError.usage("\(place): stage \"\(descriptor.name)\" produces \(descriptor.output.rawValue); "
                    + "plugin ABI version 1 returns an image only")
            }
            let entry = PluginStageEntryV1(table: stage, descriptor: descriptor, origin: path)
            definitions.append(StageDefinition(descriptor: descriptor, origin: path) { parameters in
                try PluginStageV1(entry: entry, parameters: parameters)
            })
        }
        return PluginLibrary(path: path, abiVersion: 1, name: name, version: plugin.version.map { String(cString: $0) } ?? "",
                             licence: "", description: "", definitions: definitions, formats: [])
    }

    private static func openV2(_ plugin: sumi_plugin, path: String) throws(SumiError) -> PluginLibrary {
        let (name, place) = try identity(name: plugin.name, stageCount: plugin.stage_count,
                                         hasStages: plugin.stages != nil || plugin.stage_list != nil, path: path)
        var definitions: [StageDefinition] = []
        var bandStages: [String] = []
        // A stage table ends after `reserved` in the first version 2 layout, before the band callbacks.
        let baseSize = MemoryLayout<sumi_stage>.offset(of: \sumi_stage.band_begin) ?? MemoryLayout<sumi_stage>.size
        let stages = try PluginTables.entries(array: plugin.stages, list: plugin.stage_list, count: Int(plugin.stage_count),
                                              baseSize: baseSize, empty: sumi_stage(), what: "stage", place: place)
        for (index, stage) in stages.enumerated() {
            let table = stage.copy
            let descriptor = try checkedDescriptor(table.descriptor_json, hasFunctions: table.create != nil && table.process != nil
                                                   && table.destroy != nil, index: index, place: place)
            try checkPorts(descriptor, place: place)
            let bands = try readBands(table, descriptor: descriptor, place: place)
            if bands != nil { bandStages.append(descriptor.name) }
            let entry = PluginStageEntryV2(table: stage.pointer, functions: table, descriptor: descriptor, origin: path, bands: bands,
                                           portAccess: table.port_access)
            definitions.append(StageDefinition(descriptor: descriptor, origin: path) { parameters in
                try PluginStageV2(entry: entry, parameters: parameters)
            })
        }
        var formats: [ImageCodec] = []
        let formatTables = try PluginTables.entries(array: plugin.formats, list: plugin.format_list, count: Int(plugin.format_count),
                                                    baseSize: MemoryLayout<sumi_format>.size, empty: sumi_format(),
                                                    what: "format", place: place)
        for (index, format) in formatTables.enumerated() {
            formats.append(try PluginFormatReader.read(format.pointer, entry: format.copy, index: index, place: place, origin: path))
        }
        try PluginTables.registerSideDataKeys(plugin, place: place, origin: path)
        return PluginLibrary(path: path, abiVersion: 2, name: name, version: plugin.version.map { String(cString: $0) } ?? "",
                             licence: plugin.licence.map { String(cString: $0) } ?? "",
                             description: plugin.description.map { String(cString: $0) } ?? "",
                             definitions: definitions, formats: formats, bandStages: bandStages)
    }

    private static func readDescriptor(_ json: UnsafePointer<CChar>?, index: Int, place: String) throws(SumiError) -> StageDescriptor {
        guard let json else { throw SumiError.usage("\(place) is malformed: stage #\(index) has no descriptor") }
        do { return try StageDescriptorJSON.decode(text: String(cString: json)) } catch {
            throw SumiError.usage("\(place) has a malformed descriptor for stage #\(index): \(error)")
        }
    }

    /// The band callbacks of a stage table (zeroed beyond the size it declares): `band_process`,
    /// `band_end` and one of `band_begin` (one image input and output) or `band_start` (an image
    /// first input and an image output, other inputs of any kind), or none.
    private static func readBands(_ table: sumi_stage, descriptor: StageDescriptor, place: String) throws(SumiError) -> PluginStageEntryV2.Bands? {
        let stage = "\(place): stage \"\(descriptor.name)\""
        if let start = table.band_start {
            guard let process = table.band_process, let end = table.band_end else {
                throw SumiError.usage("\(stage) sets band_start but not both of band_process and band_end")
            }
            guard descriptor.output == .image, descriptor.listOutputParameter == nil, descriptor.inputs.first?.accepts == [.image] else {
                throw SumiError.usage("\(stage) has band_start, which needs an image first input and an image output")
            }
            return PluginStageEntryV2.Bands(begin: .inputs(start), process: process, end: end)
        }
        let set = [table.band_begin != nil, table.band_process != nil, table.band_end != nil]
        guard set.contains(true) else { return nil }
        guard let begin = table.band_begin, let process = table.band_process, let end = table.band_end else {
            throw SumiError.usage("\(stage) sets some band callbacks but not all of band_begin, band_process and band_end")
        }
        guard descriptor.inputs.count == 1, descriptor.inputs[0].accepts == [.image], descriptor.output == .image,
              descriptor.listOutputParameter == nil else {
            throw SumiError.usage("\(stage) has band callbacks, which need exactly one image input and an image output")
        }
        return PluginStageEntryV2.Bands(begin: .size(begin), process: process, end: end)
    }

    /// A descriptor that contradicts itself about its ports is refused at load: no port, two ports of
    /// one name, a list output that follows a parameter it does not have.
    private static func checkPorts(_ descriptor: StageDescriptor, place: String) throws(SumiError) {
        let stage = "\(place): stage \"\(descriptor.name)\""
        var seen: Set<String> = []
        for port in descriptor.inputs {
            guard !port.accepts.isEmpty else { throw SumiError.usage("\(stage) input \"\(port.name)\" accepts no kind") }
            guard seen.insert(port.name).inserted else { throw SumiError.usage("\(stage) has two inputs named \"\(port.name)\"") }
        }
        if let list = descriptor.listOutputParameter {
            guard descriptor.parameter(named: list) != nil else {
                throw SumiError.usage("\(stage) declares \"list-output-when\": \"\(list)\" but has no parameter \"\(list)\"")
            }
            guard descriptor.output == .image else {
                throw SumiError.usage("\(stage) declares \"list-output-when\" with \(descriptor.output.rawValue) output (only an image output becomes a list)")
            }
        }
        if descriptor.effect != .unknown && descriptor.effect != .creates {
            guard case .image? = descriptor.inputs.first?.accepts.first, descriptor.output == .image else {
                throw SumiError.usage("\(stage) declares \"effect\": \"\(descriptor.effect.rawValue)\", which needs an image first input and an image output")
            }
        }
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
