import CSumiPlugin
import SumiKit

/// Writes Swift errors into the host's `sumi_error` and returns the matching status code.
enum ExportedError {
    /// Reports a thrown error: a `StageError` about a parameter becomes
    /// `SUMI_ERROR_INVALID_PARAMETER`, other stage errors `SUMI_ERROR_PROCESS`.
    static func report(_ error: any Error, into out: UnsafeMutablePointer<sumi_error>?) -> Int32 {
        guard let stageError = error as? StageError else {
            return report(out, code: SUMI_ERROR_PROCESS, String(describing: error))
        }
        if stageError.isUsageError, let parameter = stageError.parameter {
            return report(out, code: SUMI_ERROR_INVALID_PARAMETER, stageError.message, parameter: parameter)
        }
        return report(out, code: SUMI_ERROR_PROCESS, stageError.message, parameter: stageError.parameter)
    }

    /// Fills in `out` (when the host gave one large enough) and returns `code`.
    static func report(_ out: UnsafeMutablePointer<sumi_error>?, code: sumi_status, _ message: String,
                       parameter: String? = nil) -> Int32 {
        let status = Int32(bitPattern: code.rawValue)
        guard let out, Int(out.pointee.size) >= MemoryLayout<sumi_error>.size else { return status }
        out.pointee.code = status
        withUnsafeMutableBytes(of: &out.pointee.message) { copy(message, into: $0) }
        withUnsafeMutableBytes(of: &out.pointee.parameter) { copy(parameter ?? "", into: $0) }
        return status
    }

    /// Copies `text` as a NUL-terminated string, cut to the buffer's capacity.
    private static func copy(_ text: String, into buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count > 0 else { return }
        var count = 0
        for byte in text.utf8 where count < buffer.count - 1 {
            buffer[count] = byte
            count += 1
        }
        buffer[count] = 0
    }
}
