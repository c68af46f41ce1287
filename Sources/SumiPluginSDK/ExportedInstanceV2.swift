import CSumiPlugin
import SumiKit

/// A Swift stage instance handed to a version 2 host as an opaque pointer: its whole-value
/// `process`, and between `band_begin`/`band_start` and `band_end` the plan its bands follow.
/// The host calls one instance's callbacks one at a time, so no lock guards the band state.
final class ExportedInstanceV2 {
    let stage: any StageInstance
    let descriptor: StageDescriptor
    /// The host's api (valid for the process).
    let api: UnsafePointer<sumi_api>
    /// The image width between the start of the bands and `band_end` (nil outside band mode).
    var bandWidth: Int?
    /// What each `band_process` runs (nil outside band mode).
    var bands: BandPlan?
    /// The `band_start` call, for the stage's warnings while its bands run.
    var bandCall: HostCall?

    init(stage: any StageInstance, descriptor: StageDescriptor, api: UnsafePointer<sumi_api>) {
        self.stage = stage
        self.descriptor = descriptor
        self.api = api
    }

    /// How the stage reads port `index` (`port_access`): by bands only on the band port of a
    /// `BandStage` (or the first port of a stage of the deprecated `BandProcessing`), a shape where it asks for one.
    func access(port index: Int) -> sumi_port_access {
        guard descriptor.inputs.indices.contains(index) else { return SUMI_ACCESS_WHOLE }
        let name = descriptor.inputs[index].name
        if index == 0 && stage is any _BandProcessingMethods { return SUMI_ACCESS_BANDS }
        switch stage.imageAccess(for: name) {
        case .rows: return index == 0 && (stage as? any BandStage)?.bandPort.name == name ? SUMI_ACCESS_BANDS : SUMI_ACCESS_WHOLE
        case .shape: return SUMI_ACCESS_SHAPE
        case .whole: return SUMI_ACCESS_WHOLE
        }
    }

    func process(call: OpaquePointer, inputs: UnsafePointer<OpaquePointer?>?, count: Int) throws -> OpaquePointer {
        let host = HostCall(call: call, api: api)
        let result = try stage.process(try values(inputs, count: count, skipping: nil, call: call), context: host.context)
        return try HostValues.make(result, call: call, api: api)
    }

    /// `band_start`: the plan of a `BandStage` for the band port's shape and the other inputs (its
    /// side data written on `output`), or a deprecated `BandProcessing` stage's (no side data: the host applies its effect).
    func startBands(call: OpaquePointer, inputs: UnsafePointer<OpaquePointer?>?, count: Int,
                    output: OpaquePointer) throws -> (plan: BandPlan, width: Int) {
        guard count >= 1, let first = inputs?[0] else { throw StageError("band_start got no band input") }
        let shape = try HostValues.shape(first, api: api)
        guard shape.width > 0, shape.height > 0 else {
            throw StageError("band_start got an empty image of \(shape.width)x\(shape.height) pixels")
        }
        if let stage = stage as? any _BandProcessingMethods {
            return (try stage.bandPlan(width: shape.width, height: shape.height), shape.width)
        }
        guard let stage = stage as? any BandStage else { throw StageError("the stage does not process bands") }
        let host = HostCall(call: call, api: api)
        bandCall = host
        let plan = try stage.bands(over: shape, inputs: try values(inputs, count: count, skipping: 0, call: call),
                                   context: host.context)
        try HostValues.setSideData(plan.metadata, on: output, api: api)
        return (plan, shape.width)
    }

    /// The host's values as the stage's inputs: shape ports as shapes, `skipping` left out (the
    /// band port, which comes by bands).
    private func values(_ inputs: UnsafePointer<OpaquePointer?>?, count: Int, skipping: Int?,
                        call: OpaquePointer) throws -> StageInputs {
        guard count == descriptor.inputs.count else {
            throw StageError("the host passed \(count) values, the stage has \(descriptor.inputs.count) input ports")
        }
        var values: [String: Value] = [:]
        var shapes: [String: ImageShape] = [:]
        for (index, port) in descriptor.inputs.enumerated() where index != skipping {
            guard let value = inputs?[index] else { throw StageError("the host passed no value for port \"\(port.name)\"") }
            if stage.imageAccess(for: port.name) == .shape, HostValues.isImage(value, api: api) {
                shapes[port.name] = try HostValues.shape(value, api: api)
            } else {
                values[port.name] = try HostValues.value(value, call: call, api: api)
            }
        }
        return StageInputs(values, shapes: shapes)
    }
}
