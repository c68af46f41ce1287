import CSumiPlugin
import SumiKit

/// The band callbacks of a `BandProcessing` stage's `sumi_stage` table: each calls the Swift method
/// on the instance's stage, and turns a thrown error (or a call the ABI does not allow) into a
/// `sumi_error` message and status, so nothing Swift crosses the C boundary.
enum ExportedBands {
    /// Sets `band_begin`, `band_process` and `band_end` of `table`.
    static func fill(_ table: inout sumi_stage) {
        table.band_begin = { instance, width, height, outWidth, outHeight, errorOut in
            guard let exported = ExportedBands.instanceObject(instance) else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_begin called without an instance")
            }
            guard let stage = exported.stage as? any BandProcessing else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "the stage does not process bands")
            }
            guard width > 0, height > 0 else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_PROCESS, "band_begin got an empty image of \(width)x\(height) pixels")
            }
            do {
                try stage.beginBands(width: Int(width), height: Int(height))
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
            // Band mode keeps the size: the result is as large as the input.
            outWidth?.pointee = width
            outHeight?.pointee = height
            exported.bandWidth = Int(width)
            return Int32(SUMI_OK.rawValue)
        }
        table.band_process = { instance, inRows, outRows, firstRow, rowCount, stride, errorOut in
            guard let exported = ExportedBands.instanceObject(instance), let stage = exported.stage as? any BandProcessing,
                  let width = exported.bandWidth else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_process called before band_begin")
            }
            guard let inRows, let outRows else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_process called without rows")
            }
            guard rowCount > 0, firstRow >= 0, stride >= Int64(width) * 4, let stride = Int(exactly: stride) else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL,
                                            "band_process got \(rowCount) rows from row \(firstRow) with stride \(stride) for width \(width)")
            }
            let input = ImageBand(base: inRows, width: width, firstRow: Int(firstRow), rowCount: Int(rowCount), stride: stride)
            let output = MutableImageBand(base: outRows, width: width, firstRow: Int(firstRow), rowCount: Int(rowCount), stride: stride)
            do {
                try stage.processBand(input, into: output)
                return Int32(SUMI_OK.rawValue)
            } catch {
                return ExportedError.report(error, into: errorOut)
            }
        }
        table.band_end = { instance, completed, errorOut in
            guard let exported = ExportedBands.instanceObject(instance), let stage = exported.stage as? any BandProcessing else {
                return ExportedError.report(errorOut, code: SUMI_ERROR_INTERNAL, "band_end called without a band instance")
            }
            exported.bandWidth = nil
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
