import Synchronization

/// The host objects a version 2 plugin currently holds pointers to (`sumi_value *`, `sumi_call *`,
/// `sumi_params *`, `sumi_param *`), so that a pointer coming back through the api is checked before
/// it is used: a stale pointer (kept from an earlier call), a foreign one (a pointer to the plugin's
/// own data) or garbage finds nothing here, and the api function returns its error instead of the
/// host reading freed or foreign memory.
///
/// The pointer a plugin sees is a token, not the object's address: tokens count up and are never
/// reused, so a pointer kept from an ended call cannot name a newer object that happens to live at
/// the same address. The table holds weak references only, so an object on its way out is never
/// handed back.
final class PluginHandles<Object: AnyObject & Sendable>: Sendable {
    private struct Entry {
        weak var object: Object?
    }
    private struct State {
        var live: [UInt: Entry] = [:]
        var next: UInt = 1
    }
    private let state = Mutex(State())

    /// A fresh token for an object being made (`attach` it once the object exists).
    func reserve() -> OpaquePointer {
        state.withLock { state in
            defer { state.next += 1 }
            // Aligned like a pointer and never 0: token n is 16·n.
            return OpaquePointer(bitPattern: state.next << 4).unsafelyUnwrapped
        }
    }

    /// Records `object` as the one `token` names.
    func attach(_ object: Object, to token: OpaquePointer) {
        state.withLock { $0.live[UInt(bitPattern: Int(bitPattern: token))] = Entry(object: object) }
    }

    /// Forgets `token` (from the object's `deinit`).
    func remove(_ token: OpaquePointer) {
        state.withLock { _ = $0.live.removeValue(forKey: UInt(bitPattern: Int(bitPattern: token))) }
    }

    /// The live object `handle` names, or nil for NULL, an object gone, or a pointer that never was
    /// one of ours.
    func object(_ handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        return state.withLock { $0.live[UInt(bitPattern: Int(bitPattern: handle))]?.object }
    }

    /// How many objects are live.
    var count: Int { state.withLock { $0.live.count } }
}
