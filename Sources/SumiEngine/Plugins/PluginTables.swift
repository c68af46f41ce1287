import CSumiPlugin
import SumiKit

/// Reads the tables of a version 2 `sumi_plugin` by the rules of "ARRAYS OF TABLES" in
/// `sumi_plugin.h`: never past the `size` a table declares, and never stepping an array of structs at
/// the host's own `sizeof` (a struct the plugin was built with may be shorter or longer).
enum PluginTables {
    /// A table of the plugin's and a zero-filled copy of it at the host's layout: the fields beyond
    /// the size it declares read as zero (NULL, none).
    struct Entry<Table> {
        let pointer: UnsafePointer<Table>
        let copy: Table
    }

    /// The `sumi_plugin` a table of `declaredSize` bytes describes, fields beyond it zero.
    static func plugin(_ raw: UnsafeRawPointer, declaredSize: Int) -> sumi_plugin {
        var table = sumi_plugin()
        withUnsafeMutableBytes(of: &table) { copy in
            copy.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: min(declaredSize, copy.count)))
        }
        return table
    }

    /// The `count` entries of a plugin's `array` (structs stepped by the size the first declares, all
    /// declaring it) or `list` (pointers, each table its own size); at most one of them is set. Every
    /// table starts with its `uint32_t size`, at least `baseSize`.
    static func entries<Table>(array: UnsafePointer<Table>?, list: UnsafePointer<UnsafePointer<Table>?>?, count: Int,
                               baseSize: Int, empty: Table, what: String, place: String) throws(SumiError) -> [Entry<Table>] {
        guard count > 0 else { return [] }
        guard array == nil || list == nil else {
            throw SumiError.usage("\(place) is malformed: it gives both an array and a list of \(what) tables")
        }
        var pointers: [UnsafePointer<Table>] = []
        if let list {
            for index in 0..<count {
                guard let table = list[index] else { throw SumiError.usage("\(place) is malformed: \(what) #\(index) is NULL") }
                pointers.append(table)
            }
        } else if let array {
            let stride = Int(UnsafeRawPointer(array).load(as: UInt32.self))
            guard stride >= baseSize else {
                throw SumiError.usage("\(place) is malformed: \(what) #0 has size \(stride), expected at least \(baseSize)")
            }
            for index in 0..<count {
                let table = (UnsafeRawPointer(array) + index * stride).assumingMemoryBound(to: Table.self)
                let size = Int(UnsafeRawPointer(table).load(as: UInt32.self))
                guard size == stride else {
                    throw SumiError.usage("\(place) is malformed: \(what) #\(index) has size \(size), but \(what) #0 has \(stride) "
                        + "(an array's entries share one size; a list of pointers may mix sizes)")
                }
                pointers.append(table)
            }
        } else {
            throw SumiError.usage("\(place) is malformed: \(count) \(what)s but no \(what) table")
        }
        var entries: [Entry<Table>] = []
        for (index, pointer) in pointers.enumerated() {
            let size = Int(UnsafeRawPointer(pointer).load(as: UInt32.self))
            guard size >= baseSize else {
                throw SumiError.usage("\(place) is malformed: \(what) #\(index) has size \(size), expected at least \(baseSize)")
            }
            var copy = empty
            withUnsafeMutableBytes(of: &copy) { bytes in
                bytes.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: min(size, bytes.count)))
            }
            entries.append(Entry(pointer: pointer, copy: copy))
        }
        return entries
    }

    /// Registers the side-data keys a plugin adds (`side_data_keys`).
    static func registerSideDataKeys(_ plugin: sumi_plugin, place: String, origin: String) throws(SumiError) {
        let count = Int(plugin.side_data_key_count)
        guard count > 0 else { return }
        guard let list = plugin.side_data_keys else {
            throw SumiError.usage("\(place) is malformed: \(count) side-data keys but no list")
        }
        let base = MemoryLayout<sumi_side_data_key>.offset(of: \sumi_side_data_key.reserved) ?? MemoryLayout<sumi_side_data_key>.size
        for entry in try entries(array: nil, list: list, count: count, baseSize: base, empty: sumi_side_data_key(),
                                 what: "side-data key", place: place) {
            guard let name = entry.copy.name else { throw SumiError.usage("\(place) is malformed: a side-data key has no name") }
            let rules = [entry.copy.on_pixels, entry.copy.on_geometry]
            guard rules.allSatisfy({ $0 == SUMI_SIDE_DATA_KEEP.rawValue || $0 == SUMI_SIDE_DATA_DROP.rawValue }) else {
                throw SumiError.usage("\(place): side-data key \"\(MessageText.cut(String(cString: name)))\" has a rule other than KEEP (1) or DROP (0)")
            }
            do {
                try PluginSideDataKeys.register(String(cString: name),
                                                rule: SideDataRule(keepsOnPixels: rules[0] == SUMI_SIDE_DATA_KEEP.rawValue,
                                                                   keepsOnGeometry: rules[1] == SUMI_SIDE_DATA_KEEP.rawValue),
                                                origin: origin)
            } catch {
                throw SumiError.usage("\(place): \(error.message)")
            }
        }
    }
}
