import CSumiPlugin
import Glibc
import SumiKit

/// One Swift stage type seen through ABI version 2: its `sumi_stage` table and the callbacks behind
/// it. Parameters are read with the host's typed accessors; inputs and the result cross as the host's
/// values (`HostValues`). A `BandStage` type gets the band callbacks (`band_start`) from a host that has them, as
/// every stage gets `port_access`; a type of the deprecated `BandProcessing` also gets
/// `band_begin` for older hosts (`ExportedBands`).
final class ExportedStageV2 {
    let definition: StageDefinition
    /// The host's api, kept from `sumi_plugin_init` (valid for the process).
    let api: UnsafePointer<sumi_api>

    /// Which band callbacks a stage's instances can take.
    enum Bands: Equatable {
        /// A type of the deprecated `BandProcessing` adapter: `band_begin` for any host, `band_start` too for a host that has it.
        case bandProcessing
        /// A `BandStage` type: `band_start`, for a host that has it.
        case bandStage
        /// Neither (a type exported by type): no band callbacks.
        case none
        /// A definition: `band_start` where the descriptor allows it; each instance tells.
        case unknown

        init(_ type: any Stage.Type) {
            self = type is any _BandProcessingMethods.Type ? .bandProcessing : type is any BandStage.Type ? .bandStage : .none
        }
    }

    private init(definition: StageDefinition, api: UnsafePointer<sumi_api>) {
        self.definition = definition
        self.api = api
    }

    /// The size of a `sumi_stage` table without the band callbacks: the first version 2 layout,
    /// which hosts from before the band callbacks step through.
    static let baseSize = MemoryLayout<sumi_stage>.offset(of: \sumi_stage.band_begin) ?? MemoryLayout<sumi_stage>.size

    /// The `sumi_stage` table for `definition`, declaring `size` bytes (`baseSize`, or the whole table
    /// when some stage of the plugin streams). `bands` fills in the band callbacks. Its strings and
    /// `user_data` are never freed.
    /// `extended`: the host has `port_access` and `band_start` (`SUMI_API_HAS(api, image_size)`).
    static func makeTable(for definition: StageDefinition, api: UnsafePointer<sumi_api>, bands: Bands, extended: Bool,
                          size: Int) -> sumi_stage {
        var table = sumi_stage()
        table.size = UInt32(size)
        table.descriptor_json = UnsafePointer(strdup(StageDescriptorJSON.encode(definition.descriptor).serialized()))
        table.user_data = Unmanaged.passRetained(ExportedStageV2(definition: definition, api: api)).toOpaque()
        table.create = { stage, params, instance, errorOut in
            guard let data = stage?.pointee.user_data, let instance else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "create called without a stage, an instance slot or the host's api")
            }
            let exported = Unmanaged<ExportedStageV2>.fromOpaque(data).takeUnretainedValue()
            do {
                let parameters = HostValues.parameters(params, descriptor: exported.definition.descriptor, api: exported.api)
                let stage = try exported.definition.make(parameters)
                instance.pointee = Unmanaged.passRetained(ExportedInstanceV2(stage: stage, descriptor: exported.definition.descriptor,
                                                                             api: exported.api)).toOpaque()
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.process = { instance, call, inputs, count, result, errorOut in
            guard let instance, let call, let result else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "process called without an instance, a call or a result slot")
            }
            let exported = Unmanaged<ExportedInstanceV2>.fromOpaque(instance).takeUnretainedValue()
            do {
                result.pointee = try exported.process(call: call, inputs: inputs, count: Int(count))
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.destroy = { instance in
            guard let instance else { return }
            Unmanaged<ExportedInstanceV2>.fromOpaque(instance).release()
        }
        if bands == .bandProcessing { ExportedBands.fill(&table) }
        if extended { ExportedBands.fillStart(&table, descriptor: definition.descriptor, bands: bands != .none) }
        return table
    }
}
