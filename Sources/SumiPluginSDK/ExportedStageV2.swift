import CSumiPlugin
import Glibc
import SumiKit

/// One Swift stage type seen through ABI version 2: its `sumi_stage` table and the callbacks behind
/// it. Parameters are read with the host's typed accessors; inputs and the result cross as the host's
/// values (`HostValues`). A stage type that conforms to `BandProcessing` also gets the band
/// callbacks (`ExportedBands`).
final class ExportedStageV2 {
    let definition: StageDefinition

    private init(definition: StageDefinition) { self.definition = definition }

    /// The size of a `sumi_stage` table without the band callbacks: the first version 2 layout,
    /// which hosts from before the band callbacks step through.
    static let baseSize = MemoryLayout<sumi_stage>.offset(of: \sumi_stage.band_begin) ?? MemoryLayout<sumi_stage>.size

    /// The `sumi_stage` table for `definition`, declaring `size` bytes (`baseSize`, or the whole table
    /// when some stage of the plugin streams). `bands` fills in the band callbacks. Its strings and
    /// `user_data` are never freed.
    static func makeTable(for definition: StageDefinition, bands: Bool, size: Int) -> sumi_stage {
        var table = sumi_stage()
        table.size = UInt32(size)
        table.descriptor_json = UnsafePointer(strdup(StageDescriptorJSON.encode(definition.descriptor).serialized()))
        table.user_data = Unmanaged.passRetained(ExportedStageV2(definition: definition)).toOpaque()
        table.create = { stage, params, instance, errorOut in
            guard let data = stage?.pointee.user_data, let instance, let api = HostAPI.table else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "create called without a stage, an instance slot or the host's api")
            }
            let exported = Unmanaged<ExportedStageV2>.fromOpaque(data).takeUnretainedValue()
            do {
                let parameters = HostValues.parameters(params, descriptor: exported.definition.descriptor, api: api)
                let stage = try exported.definition.make(parameters)
                instance.pointee = Unmanaged.passRetained(ExportedInstanceV2(stage: stage, descriptor: exported.definition.descriptor)).toOpaque()
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.process = { instance, call, inputs, count, result, errorOut in
            guard let instance, let call, let result, let api = HostAPI.table else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "process called without an instance, a call or a result slot")
            }
            let exported = Unmanaged<ExportedInstanceV2>.fromOpaque(instance).takeUnretainedValue()
            do {
                result.pointee = try exported.process(call: call, inputs: inputs, count: Int(count), api: api)
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.destroy = { instance in
            guard let instance else { return }
            Unmanaged<ExportedInstanceV2>.fromOpaque(instance).release()
        }
        if bands { ExportedBands.fill(&table) }
        return table
    }
}

/// A Swift stage instance handed to a version 2 host as an opaque pointer.
final class ExportedInstanceV2 {
    let stage: any StageInstance
    let descriptor: StageDescriptor
    /// The image width between `band_begin` and `band_end` (nil outside band mode). The host calls
    /// the band callbacks of one instance one at a time, so no lock guards it.
    var bandWidth: Int?

    init(stage: any StageInstance, descriptor: StageDescriptor) {
        self.stage = stage
        self.descriptor = descriptor
    }

    func process(call: OpaquePointer, inputs: UnsafePointer<OpaquePointer?>?, count: Int,
                 api: UnsafePointer<sumi_api>) throws -> OpaquePointer {
        guard count == descriptor.inputs.count else {
            throw StageError("the host passed \(count) values, the stage has \(descriptor.inputs.count) input ports")
        }
        var values: [String: Value] = [:]
        for (index, port) in descriptor.inputs.enumerated() {
            guard let value = inputs?[index] else { throw StageError("the host passed no value for port \"\(port.name)\"") }
            values[port.name] = try HostValues.value(value, call: call, api: api)
        }
        let host = HostCall(call: call, api: api)
        let context = StageContext(warn: { host.warn($0) }, sizeHint: { host.sizeHint($0) })
        let result = try stage.process(StageInputs(values), context: context)
        return try HostValues.make(result, call: call, api: api)
    }
}

/// The host's `sumi_call` during one `process`, for the stage's warnings and size hint.
/// `@unchecked Sendable`: `StageContext`'s closures must be `@Sendable`; the ABI lets any thread use
/// the call while it runs, and the stage does not keep its context afterwards.
private final class HostCall: @unchecked Sendable {
    let call: OpaquePointer
    let api: UnsafePointer<sumi_api>
    init(call: OpaquePointer, api: UnsafePointer<sumi_api>) { self.call = call; self.api = api }

    func warn(_ message: String) { message.withCString { api.pointee.warn?(call, $0) } }

    func sizeHint(_ full: Size) -> Size? {
        var width: Int32 = 0, height: Int32 = 0
        let smaller = api.pointee.size_hint?(call, Int32(clamping: Int(full.width)), Int32(clamping: Int(full.height)), &width, &height)
        return smaller == 1 ? Size(width: Double(width), height: Double(height)) : nil
    }
}

/// The host's api table, kept from `sumi_plugin_init` (valid for the process).
enum HostAPI {
    nonisolated(unsafe) static var table: UnsafePointer<sumi_api>?
}
