import CSumiPlugin
import Glibc
import SumiKit

/// One Swift stage type seen through the C ABI: its `sumi_stage` table and the callbacks behind it.
///
/// The table's `user_data` holds this object (retained for the life of the process, as the ABI asks);
/// each instance the host creates is an `ExportedInstance` passed as an opaque pointer.
final class ExportedStage {
    let definition: StageDefinition

    private init(definition: StageDefinition) { self.definition = definition }

    /// The `sumi_stage` table for `definition`. Its strings and `user_data` are never freed.
    static func makeTable(for definition: StageDefinition) -> sumi_stage_v1 {
        var table = sumi_stage_v1()
        table.size = UInt32(MemoryLayout<sumi_stage_v1>.size)
        let json = StageDescriptorJSON.encode(definition.descriptor).serialized()
        table.descriptor_json = UnsafePointer(strdup(json))
        table.user_data = Unmanaged.passRetained(ExportedStage(definition: definition)).toOpaque()
        table.create = { stage, params, given, instance, errorOut in
            guard let data = stage?.pointee.user_data, let instance else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "create called without a stage or instance slot")
            }
            let exported = Unmanaged<ExportedStage>.fromOpaque(data).takeUnretainedValue()
            do {
                let made = try exported.create(params: params.map { String(cString: $0) } ?? "{}",
                                               given: given.map { String(cString: $0) })
                instance.pointee = Unmanaged.passRetained(made).toOpaque()
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.process = { instance, inputs, count, output, errorOut in
            guard let instance, let output else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "process called without an instance or output")
            }
            let exported = Unmanaged<ExportedInstance>.fromOpaque(instance).takeUnretainedValue()
            do {
                try exported.process(inputs: inputs, count: Int(count), output: output)
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.destroy = { instance in
            guard let instance else { return }
            Unmanaged<ExportedInstance>.fromOpaque(instance).release()
        }
        return table
    }

    /// Checks the host's parameters against the stage's own descriptor and makes the stage.
    func create(params: String, given: String?) throws -> ExportedInstance {
        let json: JSONValue
        do { json = try JSONParser.parse(params) } catch {
            throw StageError("parameters from the host are not valid JSON: \(error)")
        }
        guard let members = json.objectValue else { throw StageError("parameters from the host are not a JSON object") }
        let checked: Parameters
        do { checked = try ParameterChecker(definition.descriptor).check(members) } catch {
            throw StageError.invalidParameter(error.parameter, error.message)
        }
        var givenNames = Set(checked.given)
        if let given, let names = (try? JSONParser.parse(given))?.arrayValue {
            givenNames = Set(names.compactMap(\.stringValue))
        }
        let stage = try definition.make(Parameters(checked.values, given: givenNames))
        return ExportedInstance(stage: stage, descriptor: definition.descriptor)
    }
}
