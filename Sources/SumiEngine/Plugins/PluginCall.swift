import CSumiPlugin
import Synchronization
import SumiKit

/// The host object behind a `sumi_call *`: one `process`, `decode` or `encode` call of a version 2
/// plugin. It keeps every value passed to or made by the plugin alive until the call ends, forwards
/// warnings and the size hint, and collects an encoder's bytes.
///
/// Files: only a stage's `process` may `write_file`, and only where the run's `WriteConfinement`
/// allows (a safe run: below the output folder); a format's `decode`/`encode` hands its bytes back.
///
/// `@unchecked Sendable`: a plugin may call `warn` from threads it starts during the call; the
/// mutable state is behind `state`'s lock.
final class PluginCall: @unchecked Sendable {
    /// Names the plugin in messages: `plugin libfoo.so`.
    let place: String
    let warn: (String) -> Void
    let sizeHint: ((Size) -> Size?)?
    /// Whether `write_file` may be used in this call (a stage's `process`), and where.
    let fileWrites: FileWrites
    /// The run's pixel limits: a layer the plugin asks the host to draw is held to them.
    var limits = PixelLimits.standard

    enum FileWrites {
        /// A format's `decode` or `encode`: no files.
        case refused
        /// A stage's `process`: where the run's confinement allows (anywhere when nil).
        case allowed(WriteConfinement?)
    }

    private struct State {
        var values: [Int: PluginValue] = [:]
        /// The handles of the values the host passed in (inputs, and the images of input lists).
        var inputs: Set<Int> = []
        var bytes: [UInt8] = []
    }
    private let state = Mutex(State())

    init(place: String, warn: @escaping (String) -> Void, sizeHint: ((Size) -> Size?)? = nil,
         fileWrites: FileWrites = .refused) {
        self.place = place
        self.warn = warn
        self.sizeHint = sizeHint
        self.fileWrites = fileWrites
        handle = Self.handles.reserve()
        Self.handles.attach(self, to: handle)
    }

    deinit { Self.handles.remove(handle) }

    /// The pointer the plugin sees (a token, see `PluginHandles`).
    let handle: OpaquePointer

    /// The calls under way (see `PluginHandles`).
    static let handles = PluginHandles<PluginCall>()

    /// Keeps `value` alive for the call and returns the pointer the plugin sees.
    func adopt(_ value: PluginValue) -> OpaquePointer {
        state.withLock { $0.values[Int(bitPattern: value.handle)] = value }
        return value.handle
    }

    /// Keeps an input alive for the call and remembers it as one, so it is not taken as a result.
    func adoptInput(_ value: PluginValue) -> OpaquePointer {
        state.withLock { _ = $0.inputs.insert(Int(bitPattern: value.handle)) }
        return adopt(value)
    }

    /// Whether `handle` is an input of this call, or an image of an input list (`list_item`).
    func isInput(_ handle: OpaquePointer) -> Bool {
        state.withLock { state in
            state.inputs.contains(Int(bitPattern: handle)) || state.inputs.contains { key in
                state.values[key]?.madeItems.contains { $0.handle == handle } ?? false
            }
        }
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
        try withExtendedLifetime(self) { try body(handle) }
    }

    /// The call behind a plugin's pointer while it is under way; nil for NULL, an ended call or a
    /// pointer that never was one.
    static func from(_ handle: OpaquePointer?) -> PluginCall? { handles.object(handle) }

    /// The value behind `handle` when it belongs to this call: an input, a value made in it, or an
    /// image of one of its lists. A value of another call is foreign here, even while it lives.
    func owned(_ handle: OpaquePointer?) -> PluginValue? {
        guard let handle, let value = PluginValue.from(handle) else { return nil }
        return state.withLock { state in
            state.values[Int(bitPattern: handle)] != nil || state.values.values.contains { owner in
                owner.madeItems.contains { $0 === value }
            }
        } ? value : nil
    }
}
