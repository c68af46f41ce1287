import Synchronization

/// The host objects a version 2 plugin currently holds pointers to (`sumi_value *`, `sumi_call *`,
/// `sumi_params *`, `sumi_param *`), so that a pointer coming back through the api is checked before
/// it is used: a stale pointer (kept from an earlier call), a foreign one (a pointer to the plugin's
/// own data) or garbage finds nothing here, and the api function returns its error instead of the
/// host reading freed or foreign memory.
///
/// Each object adds itself when it is made and removes itself when it goes; the table holds weak
/// references only, so an object on its way out is never handed back.
final class PluginHandles<Object: AnyObject & Sendable>: Sendable {
    private struct Entry {
        weak var object: Object?
    }
    private let live = Mutex<[UInt: Entry]>([:])

    /// Records `object` as live; its handle is its address.
    func add(_ object: Object) -> OpaquePointer {
        let handle = OpaquePointer(Unmanaged.passUnretained(object).toOpaque())
        live.withLock { $0[UInt(bitPattern: Int(bitPattern: handle))] = Entry(object: object) }
        return handle
    }

    /// Forgets the object at `handle` (from its `deinit`).
    func remove(_ handle: OpaquePointer) {
        live.withLock { _ = $0.removeValue(forKey: UInt(bitPattern: Int(bitPattern: handle))) }
    }

    /// The live object behind `handle`, or nil for NULL, a freed object or a pointer that was never
    /// one of ours.
    func object(_ handle: OpaquePointer?) -> Object? {
        guard let handle else { return nil }
        return live.withLock { $0[UInt(bitPattern: Int(bitPattern: handle))]?.object }
    }

    /// How many objects are live (tests check that a call frees what it made).
    var count: Int { live.withLock { $0.count } }
}
