import Synchronization
import SumiKit

/// The stages Sumi knows, by name. Built-in families and plugin libraries register here the same way:
/// a family name, an origin, and a list of `StageDefinition` values.
public final class StageRegistry: Sendable {
    private let storage = Mutex<[String: StageDefinition]>([:])
    private let broken = Mutex<[BrokenLibrary]>([])

    /// A plugin library found in a plugin folder that could not be loaded, and why.
    public struct BrokenLibrary: Sendable {
        public var path: String
        public var reason: String
    }

    /// Remembers a library that failed to load (listed by `sumi stages`, named when a manifest uses
    /// a stage nobody offers). The same path is remembered once.
    public func recordBroken(path: String, reason: String) {
        broken.withLock { list in
            if !list.contains(where: { $0.path == path }) { list.append(BrokenLibrary(path: path, reason: reason)) }
        }
    }

    /// The libraries that failed to load, in the order they were found.
    public var brokenLibraries: [BrokenLibrary] { broken.withLock { $0 } }

    /// The image formats the plugin libraries loaded into this registry add (and which the built-in
    /// codecs own); every pipeline built from the registry hands it to its stages.
    public let formats = ImageFormatRegistry()

    public init() {}

    /// Registers stages, all or none: every name is checked (valid, not already registered, not
    /// twice in `definitions`) before the first is added, so a refused family or plugin leaves no
    /// stage behind. A plugin cannot silently replace a built-in stage or another plugin's.
    public func register(_ definitions: [StageDefinition]) throws(SumiError) {
        try storage.withLock { (table: inout [String: StageDefinition]) throws(SumiError) in
            var seen: [String: StageDefinition] = [:]
            for definition in definitions {
                let name = definition.descriptor.name
                guard StageRegistry.isValidName(name) else {
                    throw SumiError.usage("stage name \"\(name)\" from \(definition.origin) is not valid (use lower-case letters, digits and '-')")
                }
                if let existing = table[name] ?? seen[name] {
                    if existing.origin == definition.origin {
                        throw SumiError.usage("\(definition.origin) offers two stages named \"\(name)\"")
                    }
                    throw SumiError.usage("stage \"\(name)\" from \(definition.origin) clashes with the stage of the same name from \(existing.origin)")
                }
                seen[name] = definition
            }
            table.merge(seen) { first, _ in first }
        }
    }

    public func definition(named name: String) -> StageDefinition? {
        storage.withLock { $0[name] }
    }

    /// All stages, sorted by name.
    public var all: [StageDefinition] {
        storage.withLock { Array($0.values) }.sorted { $0.descriptor.name < $1.descriptor.name }
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }
}
