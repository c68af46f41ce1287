import SumiKit

/// The items of a HEIF or AVIF file and how they relate, read from its `meta` box by our own
/// bounds-checked reader (libheif 1.15 has no API for the item graph): `pitm`, `iinf`/`infe`,
/// `iloc` (with `idat`), `iref` and `iprp` (`ipco` properties associated by `ipma`).
///
/// `HEIFDecodePlan` uses it to find out, before libheif decodes anything, which image will be
/// decoded and how many pixels that takes.
struct HEIFItemGraph {
    /// One entry of `iinf`.
    struct Item {
        let type: String
        let hidden: Bool
    }

    /// The properties Sumi reads (others are skipped).
    enum Property {
        case size(width: Int, height: Int)
        case rotation(quarterTurns: Int)
        case mirror
        case cleanAperture
        case auxiliaryType(String)
        /// An `av1C` property's config OBUs.
        case av1Configuration([UInt8])
        case other(String)
    }

    /// Where an item's data lies (`iloc`): in the file (`offset`) or in `idat`, as extents.
    struct Location {
        let inIdat: Bool
        let extents: [(offset: Int, length: Int)]
    }

    let bytes: [UInt8]
    private(set) var primary: Int?
    /// The byte offset and width (2 or 4) of the `pitm` item id field.
    private(set) var primaryField: (offset: Int, width: Int)?
    private(set) var items: [Int: Item] = [:]
    private(set) var locations: [Int: Location] = [:]
    /// References by type (`dimg`, `thmb`, `auxl`…), in file order: from one item to others.
    private(set) var references: [(type: String, from: Int, to: [Int])] = []
    private(set) var properties: [Int: [Property]] = [:]
    private var idat: Range<Int>?

    /// Reads the graph; a box that lies about its size, a count the box cannot hold, or a value
    /// out of range is an error naming the box and its byte offset.
    init(_ bytes: [UInt8]) throws(StageError) {
        self.bytes = bytes
        let top = try ISOBox.children(of: bytes, in: 0..<bytes.count, parent: "file", lenient: true)
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw StageError("file has no 'meta' box") }
        let (_, _, contents) = try meta.full(bytes)
        let boxes = try ISOBox.children(of: bytes, in: contents.at..<meta.payload.upperBound, parent: "meta")
        for box in boxes {
            switch box.type {
            case "pitm": try readPrimary(box)
            case "iinf": try readItems(box)
            case "iloc": try readLocations(box)
            case "iref": try readReferences(box)
            case "iprp": try readProperties(box)
            case "idat": idat = box.payload
            default: break
            }
        }
    }

    private mutating func readPrimary(_ box: ISOBox) throws(StageError) {
        let (version, _, contents) = try box.full(bytes)
        var cursor = contents
        let width = version == 0 ? 2 : 4
        primaryField = (cursor.at, width)
        primary = try cursor.int(width)
    }

    private mutating func readItems(_ box: ISOBox) throws(StageError) {
        let (version, _, contents) = try box.full(bytes)
        var cursor = contents
        _ = try cursor.uint(version == 0 ? 2 : 4)  // the entry count; the boxes that follow are what counts
        for entry in try ISOBox.children(of: bytes, in: cursor.at..<box.payload.upperBound, parent: "iinf") where entry.type == "infe" {
            let (version, flags, contents) = try entry.full(bytes)
            var infe = contents
            let id = try infe.int(version >= 3 ? 4 : 2)
            _ = try infe.u16()  // protection index
            let type = try version >= 2 ? infe.fourCC() : ""
            items[id] = Item(type: type, hidden: flags & 1 != 0)
        }
    }

    /// libheif's limits: more is refused before any loop runs that long.
    static let maxLocatedItems = 20_000, maxExtents = 32

    private mutating func readLocations(_ box: ISOBox) throws(StageError) {
        let (version, _, contents) = try box.full(bytes)
        var cursor = contents
        guard version <= 2 else { throw cursor.error("version \(version) is not supported") }
        let sizes = try cursor.u16()
        let offsetSize = sizes >> 12, lengthSize = sizes >> 8 & 15, baseSize = sizes >> 4 & 15
        let indexSize = version == 0 ? 0 : sizes & 15
        for size in [offsetSize, lengthSize, baseSize, indexSize] where ![0, 4, 8].contains(size) {
            throw cursor.error("field size \(size) (0, 4 or 8 expected)")
        }
        let count = try cursor.int(version < 2 ? 2 : 4)
        guard count <= Self.maxLocatedItems else { throw cursor.error("\(count) items, more than \(Self.maxLocatedItems)") }
        for _ in 0..<count {
            let id = try cursor.int(version < 2 ? 2 : 4)
            let method = try version == 0 ? 0 : cursor.u16() & 15
            _ = try cursor.u16()  // data reference index
            let base = try cursor.int(baseSize)
            let extentCount = try cursor.u16()
            guard extentCount <= Self.maxExtents else { throw cursor.error("item \(id) has \(extentCount) extents, more than \(Self.maxExtents)") }
            var extents: [(offset: Int, length: Int)] = []
            for _ in 0..<extentCount {
                _ = try cursor.uint(indexSize)
                let (offset, overflow) = base.addingReportingOverflow(try cursor.int(offsetSize))
                guard !overflow else { throw cursor.error("item \(id): extent offset out of range") }
                extents.append((offset, try cursor.int(lengthSize)))
            }
            guard method <= 1 else { continue }  // in another item: not read by Sumi (nor by libheif 1.15)
            locations[id] = Location(inIdat: method == 1, extents: extents)
        }
    }

    private mutating func readReferences(_ box: ISOBox) throws(StageError) {
        let (version, _, contents) = try box.full(bytes)
        let width = version == 0 ? 2 : 4
        for reference in try ISOBox.children(of: bytes, in: contents.at..<box.payload.upperBound, parent: "iref") {
            var cursor = ISOCursor(bytes, reference)
            let from = try cursor.int(width)
            let count = try cursor.u16()
            try cursor.need(count * width)
            var to: [Int] = []
            for _ in 0..<count { to.append(try cursor.int(width)) }
            references.append((reference.type, from, to))
        }
    }

    private mutating func readProperties(_ box: ISOBox) throws(StageError) {
        let children = try ISOBox.children(of: bytes, in: box.payload, parent: "iprp")
        guard let ipco = children.first(where: { $0.type == "ipco" }) else { return }
        var all: [Property] = []
        for property in try ISOBox.children(of: bytes, in: ipco.payload, parent: "ipco") {
            all.append(try Self.property(property, bytes))
        }
        for ipma in children where ipma.type == "ipma" {
            let (version, flags, contents) = try ipma.full(bytes)
            var cursor = contents
            let count = try cursor.int(4)
            // Each entry takes at least three bytes: a count the box cannot hold is refused before looping.
            guard count <= cursor.remaining / 3 else { throw cursor.error("\(count) entries in \(cursor.remaining) bytes") }
            for _ in 0..<count {
                let id = try cursor.int(version < 1 ? 2 : 4)
                let associations = try cursor.u8()
                for _ in 0..<associations {
                    let index = try flags & 1 != 0 ? cursor.u16() & 0x7FFF : cursor.u8() & 0x7F
                    guard index > 0 else { continue }
                    guard index <= all.count else {
                        throw cursor.error("item \(id) refers to property \(index); 'ipco' holds \(all.count)")
                    }
                    properties[id, default: []].append(all[index - 1])
                }
            }
        }
    }

    private static func property(_ box: ISOBox, _ bytes: [UInt8]) throws(StageError) -> Property {
        switch box.type {
        case "ispe":
            var cursor = try box.full(bytes).contents
            return .size(width: Int(try cursor.u32()), height: Int(try cursor.u32()))
        case "irot":
            var cursor = ISOCursor(bytes, box)
            return .rotation(quarterTurns: try cursor.u8() & 3)
        case "imir":
            return .mirror
        case "clap":
            // As libheif checks it: numerators and denominators within 31 bits, no denominator 0.
            var cursor = ISOCursor(bytes, box)
            var fields: [UInt32] = []
            for _ in 0..<8 { fields.append(try cursor.u32()) }
            for (index, name) in [(0, "width"), (2, "height"), (4, "horizontal offset"), (6, "vertical offset")] {
                let numerator = fields[index], denominator = fields[index + 1]
                if denominator == 0 || denominator > UInt32(Int32.max) || (index < 4 && numerator > UInt32(Int32.max)) {
                    throw cursor.error("clean aperture \(name) \(Int32(bitPattern: numerator))/\(denominator) is not a valid fraction")
                }
            }
            return .cleanAperture
        case "av1C":
            return .av1Configuration(box.payload.count > 4 ? Array(bytes[(box.payload.lowerBound + 4)..<box.payload.upperBound]) : [])
        case "auxC":
            var cursor = try box.full(bytes).contents
            return .auxiliaryType(cursor.cString())
        default:
            return .other(box.type)
        }
    }

    /// Up to `limit` bytes of an item's data (a `grid` or `iovl` description), from the file or
    /// `idat` as `iloc` says; nil when the item has no location.
    func data(of item: Int, limit: Int = 4096) throws(StageError) -> [UInt8]? {
        guard let location = locations[item] else { return nil }
        let source = location.inIdat ? (idat ?? 0..<0) : 0..<bytes.count
        var data: [UInt8] = []
        for extent in location.extents where data.count < limit {
            let start = source.lowerBound.addingReportingOverflow(extent.offset)
            guard !start.overflow, start.partialValue <= source.upperBound else {
                throw StageError("'iloc' box: item \(item) lies at \(extent.offset), past the end of its \(location.inIdat ? "'idat' box" : "file")")
            }
            let available = source.upperBound - start.partialValue
            let length = extent.length == 0 ? available : extent.length
            guard length <= available else {
                throw StageError("'iloc' box: item \(item) extends \(length) bytes past byte \(start.partialValue), beyond its \(location.inIdat ? "'idat' box" : "file")")
            }
            let take = min(length, limit - data.count)
            data += bytes[start.partialValue..<(start.partialValue + take)]
        }
        return data
    }
}
