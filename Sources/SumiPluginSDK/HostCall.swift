import CSumiPlugin
import SumiKit

/// The host's `sumi_call` during one `process` (or from `band_start` to `band_end`), for the
/// stage's warnings and size hint.
/// `@unchecked Sendable`: `StageContext`'s closures must be `@Sendable`; the ABI lets any thread use
/// the call while it runs, and the stage does not keep its context afterwards.
final class HostCall: @unchecked Sendable {
    let call: OpaquePointer
    let api: UnsafePointer<sumi_api>
    init(call: OpaquePointer, api: UnsafePointer<sumi_api>) { self.call = call; self.api = api }

    /// The stage's context: warnings and the size hint go to the host through the call.
    var context: StageContext { StageContext(warn: { self.warn($0) }, sizeHint: { self.sizeHint($0) }) }

    func warn(_ message: String) { message.withCString { api.pointee.warn?(call, $0) } }

    func sizeHint(_ full: Size) -> Size? {
        var width: Int32 = 0, height: Int32 = 0
        let smaller = api.pointee.size_hint?(call, Int32(clamping: Int(full.width)), Int32(clamping: Int(full.height)), &width, &height)
        return smaller == 1 ? Size(width: Double(width), height: Double(height)) : nil
    }
}
