import Synchronization
import SumiKit

/// The side-data keys plugins added (`side_data_keys` in `sumi_plugin`), with their rules, for the
/// whole process: an entry set under one of them travels with the image through every stage.
enum PluginSideDataKeys {
    private static let rules = Mutex<[String: (rule: SideDataRule, origin: String)]>([:])

    /// Registers `name` for the library `origin`. A built-in key, a malformed name, or a key another
    /// library registered with another rule is refused; the same rule twice is one key.
    static func register(_ name: String, rule: SideDataRule, origin: String) throws(SumiError) {
        guard !name.isEmpty, name.utf8.count <= 64,
              name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || "-./".contains($0)) }) else {
            throw SumiError.usage("side-data key \"\(MessageText.cut(name))\" is malformed (lower-case letters, digits, '-', '.', '/', at most 64)")
        }
        guard !SideDataBytes.keys.contains(name), name != PassThroughBytes.name, name != ReducedDecodeSize.name else {
            throw SumiError.usage("side-data key \"\(name)\" is a built-in key")
        }
        try rules.withLock { (known: inout [String: (rule: SideDataRule, origin: String)]) throws(SumiError) in
            if let existing = known[name] {
                guard existing.rule == rule else {
                    throw SumiError.usage("side-data key \"\(name)\" is already registered by \(existing.origin) with another rule")
                }
                return
            }
            known[name] = (rule, origin)
        }
    }

    static func rule(_ name: String) -> SideDataRule? { rules.withLock { $0[name]?.rule } }

    /// The entry `key` of `metadata` as bytes (a built-in key or a registered one), nil when absent.
    static func bytes(of metadata: ImageMetadata, key: String) -> [UInt8]? {
        if rule(key) != nil { return metadata.sideData.bytes(named: key) }
        return SideDataBytes.bytes(of: metadata, key: key)
    }

    /// Sets (or, for nil, removes) the entry `key`: a registered key takes any bytes, a built-in one
    /// is checked (`SideDataBytes.set`).
    static func set(_ bytes: [UInt8]?, key: String, in metadata: inout ImageMetadata) throws(StageError) {
        if let rule = rule(key) {
            metadata.sideData.setBytes(bytes, named: key, rule: rule)
            return
        }
        do { try SideDataBytes.set(bytes, key: key, in: &metadata) } catch {
            let registered = rules.withLock { $0.keys.sorted() }
            guard !registered.isEmpty, !SideDataBytes.keys.contains(key) else { throw error }
            throw StageError("\(error.message); registered by plugins: \(registered.joined(separator: ", "))")
        }
    }
}

extension PluginSideDataKeys {
    /// Whether `key` is a built-in key or one a plugin registered.
    static func isKnown(_ key: String) -> Bool { SideDataBytes.keys.contains(key) || rule(key) != nil }
}
