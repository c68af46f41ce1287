import CSumiPlugin
import SumiKit

/// The band callbacks of a stage's `sumi_stage` table. Whatever the Swift side — a `BandStage`
/// (`band_start`, with its other inputs) or a stage written against the deprecated `BandProcessing`
/// adapter (`band_begin`, or `band_start` ignoring the inputs) — it becomes one `BandPlan` kept on the instance, and each
/// `band_process` hands that plan's body the host's rows as `RowBand`/`MutableRowBand` views (so
/// the body is the one the built-in path runs through `RowStream.mapBands`). A thrown error (or a
/// call the ABI does not allow) becomes a `sumi_error` message and status, so nothing Swift crosses
/// the C boundary.
enum ExportedBands {
    /// Sets `band_begin`, `band_process` and `band_end` of `table` (a stage of the deprecated `BandProcessing`).
    static func fill(_ table: inout sumi_stage) {
        table.band_begin = { instance, width, height, outWidth, outHeight, errorOut in
            guard let exported = ExportedBands.instanceObject(instance) else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_begin called without an instance")
            }
            guard let stage = exported.stage as? any _BandProcessingMethods else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "the stage does not process bands")
            }
            guard width > 0, height > 0 else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_PROCESS, "band_begin got an empty image of \(width)x\(height) pixels")
            }
            do {
                exported.bands = try stage.bandPlan(width: Int(width), height: Int(height))
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
            // Band mode keeps the size: the result is as large as the input.
            outWidth?.pointee = width
            outHeight?.pointee = height
            exported.bandWidth = Int(width)
            return Int32(SUMI_OK.rawValue)
        }
        fillProcessAndEnd(&table)
    }

    /// Sets `port_access`, and when `bands` for a stage whose descriptor allows them (an image first
    /// input, an image output) `band_start`, `band_process` and `band_end`: for a host that has them
    /// (`SUMI_API_HAS(api, image_size)`). Whether an instance streams is its own `imageAccess`.
    static func fillStart(_ table: inout sumi_stage, descriptor: StageDescriptor, bands: Bool) {
        table.port_access = { instance, port in
            guard let exported = ExportedBands.instanceObject(instance) else { return SUMI_ACCESS_WHOLE.rawValue }
            return exported.access(port: Int(port)).rawValue
        }
        guard bands, descriptor.output == .image, descriptor.listOutputParameter == nil,
              descriptor.inputs.first?.accepts == [.image] else { return }
        table.band_start = { instance, call, inputs, count, output, errorOut in
            guard let exported = ExportedBands.instanceObject(instance), let call, let output else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_start called without an instance, a call or an output")
            }
            do {
                let plan = try exported.startBands(call: call, inputs: inputs, count: Int(count), output: output)
                exported.bands = plan.plan
                exported.bandWidth = plan.width
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        fillProcessAndEnd(&table)
    }

    private static func fillProcessAndEnd(_ table: inout sumi_stage) {
        table.band_process = { instance, inRows, outRows, firstRow, rowCount, stride, errorOut in
            guard let exported = ExportedBands.instanceObject(instance), let plan = exported.bands, let width = exported.bandWidth else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_process called before band_begin")
            }
            guard let inRows, let outRows else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_process called without rows")
            }
            guard rowCount > 0, firstRow >= 0, stride >= Int64(width) * 4, let stride = Int(exactly: stride) else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL,
                                            "band_process got \(rowCount) rows from row \(firstRow) with stride \(stride) for width \(width)")
            }
            let rows = Int(firstRow) ..< Int(firstRow) + Int(rowCount)
            do {
                try plan.body(RowBand(base: inRows, stride: stride, width: width, rows: rows),
                              MutableRowBand(base: outRows, stride: stride, width: width, rows: rows))
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.band_end = { instance, completed, errorOut in
            guard let exported = ExportedBands.instanceObject(instance), exported.bands != nil else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_end called without a band instance")
            }
            exported.bands = nil
            exported.bandWidth = nil
            exported.bandCall = nil
            guard let stage = exported.stage as? any _BandProcessingMethods else { return Int32(SUMI_OK.rawValue) }
            do {
                try stage.endBands(completed: completed != 0)
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
    }

    private static func instanceObject(_ instance: UnsafeMutableRawPointer?) -> ExportedInstanceV2? {
        instance.map { Unmanaged<ExportedInstanceV2>.fromOpaque($0).takeUnretainedValue() }
    }
}
