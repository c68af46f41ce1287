import CSumiPlugin
import Synchronization
import SumiKit

/// The host object behind a `sumi_call *`: one `process`, `decode` or `encode` call of a version 2
/// plugin. It keeps every value passed to or made by the plugin alive until the call ends, forwards
/// warnings and the size hint, and collects an encoder's bytes.
///
/// `@unchecked Sendable`: a plugin may call `warn` from threads it starts during the call; the
/// mutable state is behind `state`'s lock.
final class PluginCall: @unchecked Sendable {
    /// Names the plugin in messages: `plugin libfoo.so`.
    let place: String
    let warn: (String) -> Void
    let sizeHint: ((Size) -> Size?)?

    private struct State {
        var values: [Int: PluginValue] = [:]
        var bytes: [UInt8] = []
    }
    private let state = Mutex(State())

    init(place: String, warn: @escaping (String) -> Void, sizeHint: ((Size) -> Size?)? = nil) {
        self.place = place
        self.warn = warn
        self.sizeHint = sizeHint
    }

    /// Keeps `value` alive for the call and returns the pointer the plugin sees.
    func adopt(_ value: PluginValue) -> OpaquePointer {
        state.withLock { $0.values[Int(bitPattern: value.handle)] = value }
        return value.handle
    }

    /// The value behind `handle` if it belongs to this call (an input, or made in it), else nil:
    /// a plugin cannot return a value of another call or a dangling pointer it kept.
    func value(_ handle: OpaquePointer?) -> PluginValue? {
        guard let handle else { return nil }
        return state.withLock { $0.values[Int(bitPattern: handle)] }
    }

    func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        state.withLock { $0.bytes.append(contentsOf: bytes) }
    }

    /// The bytes an encoder wrote.
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// Runs `body` with the pointer the plugin sees; the call stays alive during `body`.
    func withHandle<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(OpaquePointer(Unmanaged.passUnretained(self).toOpaque())) }
    }

    static func from(_ handle: OpaquePointer?) -> PluginCall? {
        guard let handle else { return nil }
        return Unmanaged<PluginCall>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
    }
}
