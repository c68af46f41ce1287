/// The functions of a C library opened on first use, for a family that should not make every
/// command map the library at start-up (text, colour management, digests): a C struct of `count`
/// function pointers (the `SUMI_DL_TABLE` of the C shims), filled by name by `fill`, which writes
/// `count` addresses into its first argument, or a message of at most its third argument's bytes
/// into its second and returns non-zero.
public enum FunctionTable {
    public static func load<Table>(count: Int, _ fill: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<CChar>, Int) -> Int32)
        -> Result<Table, LoadFailure> {
        precondition(MemoryLayout<Table>.size == count * MemoryLayout<UnsafeRawPointer>.size, "one table entry per function")
        let slots = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: count)
        defer { slots.deallocate() }
        var message = [CChar](repeating: 0, count: 512)
        let status = message.withUnsafeMutableBufferPointer { fill(slots, $0.baseAddress!, $0.count) }
        guard status == 0 else {
            return .failure(LoadFailure(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(UnsafeRawPointer(slots).load(as: Table.self))
    }

    /// The table of a library the package depends on and whose callers cannot fail (colour
    /// management, digests): without it the process stops here, naming it (`needs`: "digests need
    /// libnettle.so.8 (Debian package libnettle8)"), as the dynamic loader stopped every command at
    /// start-up when the library was linked.
    public static func required<Table>(_ table: Result<Table, LoadFailure>, _ needs: @autoclosure () -> String) -> Table {
        switch table {
        case .success(let table): return table
        case .failure(let failure): fatalError("\(needs()), which could not be loaded: \(failure.reason)")
        }
    }

    /// Why a library could not be opened (the dynamic loader's words, or the missing function).
    public struct LoadFailure: Error, Sendable {
        public let reason: String
    }
}
