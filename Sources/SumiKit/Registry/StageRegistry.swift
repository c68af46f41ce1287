import Synchronization

/// The stages Sumi knows, by name. Built-in families and plugin libraries register here the same way:
/// a family name, an origin, and a list of `StageFactory` values.
public final class StageRegistry: Sendable {
    private let storage = Mutex<[String: StageFactory]>([:])

    public init() {}

    /// Registers stages. A name already registered is refused: a plugin cannot silently replace a
    /// built-in stage or another plugin's.
    public func register(_ factories: [StageFactory]) throws(SumiError) {
        try storage.withLock { (table: inout [String: StageFactory]) throws(SumiError) in
            for factory in factories {
                let name = factory.descriptor.name
                if let existing = table[name] {
                    throw SumiError.usage("stage \"\(name)\" from \(factory.origin) clashes with the stage of the same name from \(existing.origin)")
                }
                guard StageRegistry.isValidName(name) else {
                    throw SumiError.usage("stage name \"\(name)\" from \(factory.origin) is not valid (use lower-case letters, digits and '-')")
                }
                table[name] = factory
            }
        }
    }

    public func factory(named name: String) -> StageFactory? {
        storage.withLock { $0[name] }
    }

    /// All stages, sorted by name.
    public var all: [StageFactory] {
        storage.withLock { Array($0.values) }.sorted { $0.descriptor.name < $1.descriptor.name }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }
}

/// A built-in family of stages, linked into the `sumi` binary and registered like a plugin.
public protocol StageFamily {
    static var name: String { get }
    static var stages: [StageFactory] { get }
}
