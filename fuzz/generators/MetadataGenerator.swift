/// Builds the camera metadata structures that hostile files use, from a few choice bytes: an EXIF
/// block (a TIFF structure) with GPSInfo pointers and Orientation entries in any directory — IFD0,
/// the EXIF sub-IFD, IFD1, a GPS IFD — and JPEG Extended XMP whose portions lie about the full
/// length and their offsets.
///
/// Plain Swift with no Sumi types: the `decode_metadata` fuzz target and the codec tests compile the
/// same file (the tests show that the structures are there), so what the fuzzer explores is what the
/// tests check.
enum MetadataGenerator {
    /// A directory of a generated EXIF block.
    enum Place: Int, CaseIterable, Sendable {
        case ifd0, exif, ifd1, gps
    }

    /// What a generated EXIF block holds and where.
    struct EXIFPlan: Sendable {
        var littleEndian = true
        /// Directories holding a GPSInfo pointer (0x8825); each points at a GPS IFD of its own. A
        /// pointer in `.gps` links the first GPS IFD to another one.
        var gpsPointers: Set<Place> = [.ifd0]
        /// The pointers' type: 4 (LONG) or 13 (IFD).
        var gpsPointerType = 4
        /// The Orientation values of each directory, in entry order (two give a duplicate tag).
        var orientations: [Place: [Int]] = [.ifd0: [1]]

        init() {}

        /// A plan from choice bytes (missing bytes count as zero): byte order, pointer type, the
        /// set of GPS pointer places, and for each place none, one or two Orientation values.
        init(choices: [UInt8]) {
            func choice(_ index: Int) -> Int { index < choices.count ? Int(choices[index]) : 0 }
            littleEndian = choice(0) & 1 == 0
            gpsPointerType = choice(0) & 2 == 0 ? 4 : 13
            gpsPointers = Set(Place.allCases.filter { choice(1) >> $0.rawValue & 1 == 1 })
            orientations = [:]
            for place in Place.allCases {
                let byte = choice(2 + place.rawValue)
                let values = [byte % 10, byte / 10 % 10]
                orientations[place] = Array(values.prefix(byte / 100 % 3))
            }
        }
    }

    /// The numerator of each GPS IFD's latitude degrees (the n-th IFD adds n): an odd value that
    /// is easy to find in a file's bytes, in either byte order.
    static let latitudeMarker: UInt32 = 0x2F1E_3D4C

    /// The EXIF block (from its TIFF header, without JPEG's `Exif\0\0`) for `plan`.
    static func exif(_ plan: EXIFPlan) -> [UInt8] {
        let writer = TIFFWriter(littleEndian: plan.littleEndian)
        func orientationEntries(_ place: Place) -> [TIFFWriter.Field] {
            (plan.orientations[place] ?? []).map { .short(0x0112, $0) }
        }
        func gpsPointer(_ place: Place, to id: Int) -> [TIFFWriter.Field] {
            plan.gpsPointers.contains(place) ? [.pointer(0x8825, type: plan.gpsPointerType, to: id)] : []
        }
        // Directory ids: 0 IFD0, 1 EXIF, 2 IFD1, then one GPS IFD per pointer.
        var gpsIDs: [Place: Int] = [:]
        for place in Place.allCases where plan.gpsPointers.contains(place) { gpsIDs[place] = 3 + gpsIDs.count }
        let ifd0: [TIFFWriter.Field] = [.ascii(0x010F, "Sumi")] + orientationEntries(.ifd0)
            + [.pointer(0x8769, type: 4, to: 1)] + (gpsIDs[.ifd0].map { gpsPointer(.ifd0, to: $0) } ?? [])
        let exif: [TIFFWriter.Field] = [.undefined(0x9000, Array("0232".utf8)), .ascii(0x9003, "2024:05:06 07:08:09")]
            + orientationEntries(.exif) + (gpsIDs[.exif].map { gpsPointer(.exif, to: $0) } ?? [])
        let ifd1: [TIFFWriter.Field] = [.short(0x0103, 6)] + orientationEntries(.ifd1)
            + (gpsIDs[.ifd1].map { gpsPointer(.ifd1, to: $0) } ?? [])
        var directories: [(fields: [TIFFWriter.Field], next: Int?)] = [(ifd0, 2), (exif, nil), (ifd1, nil)]
        var index = 0
        for place in Place.allCases {
            guard gpsIDs[place] != nil else { continue }
            let latitude: [(UInt32, UInt32)] = [(latitudeMarker + UInt32(index), 0x0A00_0000), (30, 1), (15, 1)]
            var gps: [TIFFWriter.Field] = [
                .bytes(0x0000, [2, 3, 0, 0]), .ascii(0x0001, "N"), .rationals(0x0002, latitude),
                .ascii(0x0003, "E"), .rationals(0x0004, [(2, 1), (17, 1), (40, 1)]),
            ] + orientationEntries(.gps)
            // The first GPS IFD links to the one `.gps`'s pointer names.
            if index == 0, place != .gps, let nested = gpsIDs[.gps] { gps += gpsPointer(.gps, to: nested) }
            directories.append((gps, nil))
            index += 1
        }
        return writer.file(directories)
    }

    /// The JPEG APP1 segment body of an EXIF block.
    static func exifSegmentBody(_ exif: [UInt8]) -> [UInt8] { Array("Exif\0\0".utf8) + exif }

    /// What a generated Extended XMP holds.
    struct ExtendedXMPPlan: Sendable {
        /// The packet the portions carry (its MD5 is the GUID only when `guid` is nil).
        var extended: [UInt8] = Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:tiff=\"http://ns.adobe.com/tiff/1.0/\" tiff:Orientation=\"6\"/>"
            + "</rdf:RDF></x:xmpmeta>").utf8)
        /// The GUID the main packet names and the portions carry.
        var guid = "0123456789ABCDEF0123456789ABCDEF"
        /// The full length every portion declares.
        var declaredLength: UInt32 = 0
        /// Each portion's declared offset and length of bytes taken from the packet there.
        var portions: [(offset: UInt32, length: Int)] = []

        init() {
            declaredLength = UInt32(extended.count)
            portions = [(0, extended.count)]
        }

        /// A plan from choice bytes: the declared length — the truth, 0xFFFFFFFF, one more or less,
        /// zero, or any 32-bit value from the bytes — and one to three portions whose offsets may
        /// overlap, leave gaps or lie.
        init(choices: [UInt8]) {
            self.init()
            func choice(_ index: Int) -> Int { index < choices.count ? Int(choices[index]) : 0 }
            let truth = UInt32(extended.count)
            let raw = UInt32(choice(2)) << 24 | UInt32(choice(3)) << 16 | UInt32(choice(4)) << 8 | UInt32(choice(5))
            declaredLength = [truth, 0xFFFF_FFFF, truth + 1, truth - 1, 0, raw][choice(0) % 6]
            let count = 1 + choice(1) % 3
            let step = (extended.count + count - 1) / count
            portions = (0..<count).map { part in
                let start = part * step, length = max(0, min(step, extended.count - start))
                let lie = choice(6 + part)
                let offset: UInt32 = switch lie % 4 {
                case 0: UInt32(start)
                case 1: UInt32(start + lie / 4)
                case 2: 0xFFFF_FFFF - UInt32(lie)
                default: UInt32(max(0, start - lie / 4))
                }
                return (offset, length)
            }
        }
    }

    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let extendedSignature = Array("http://ns.adobe.com/xmp/extension/\0".utf8)

    /// The JPEG APP1 segment bodies of `plan`: the main packet naming the GUID, then the portions.
    static func extendedXMPSegmentBodies(_ plan: ExtendedXMPPlan) -> [[UInt8]] {
        let main = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:xmpNote=\"http://ns.adobe.com/xmp/note/\" xmpNote:HasExtendedXMP=\"\(plan.guid)\"/>"
            + "</rdf:RDF></x:xmpmeta>\n<?xpacket end=\"w\"?>"
        var bodies = [xmpSignature + Array(main.utf8)]
        var start = 0
        for portion in plan.portions {
            let end = min(plan.extended.count, start + portion.length)
            bodies.append(extendedSignature + Array(plan.guid.utf8) + bigEndian(plan.declaredLength) + bigEndian(portion.offset)
                          + plan.extended[start..<end])
            start = end
        }
        return bodies
    }

    /// A JPEG marker segment: marker, big-endian length, body (cut to the largest a segment holds).
    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        let body = Array(body.prefix(65_533))
        let length = body.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    /// `jpeg` with APP1 segments of `bodies` inserted right after its SOI marker.
    static func jpeg(_ jpeg: [UInt8], inserting bodies: [[UInt8]]) -> [UInt8] {
        guard jpeg.count >= 2 else { return jpeg }
        return Array(jpeg[..<2]) + bodies.flatMap { segment(0xE1, $0) } + Array(jpeg[2...])
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// What a written EXIF block must not hold once Sumi has rewritten it: a GPSInfo pointer (with
    /// `stripLocation`), or an Orientation other than 1 (with `upright`), in any directory a reader
    /// reaches — the next-directory chain and the EXIF (0x8769), GPS (0x8825) and interoperability
    /// (0xA005) pointers of SHORT, LONG or IFD type, at most 64 directories, as Sumi walks them.
    /// A reader of its own, so that the check does not share the rewriter's mistakes.
    static func violations(in exif: [UInt8], stripLocation: Bool, upright: Bool) -> [String] {
        guard exif.count >= 8, exif[0] == exif[1], exif[0] == 0x49 || exif[0] == 0x4D else { return [] }
        let little = exif[0] == 0x49
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= exif.count else { return nil }
            return little ? Int(exif[at]) | Int(exif[at + 1]) << 8 : Int(exif[at]) << 8 | Int(exif[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let first = u32(4) else { return [] }
        var found: [String] = []
        var queue = [first], seen: Set<Int> = [first], index = 0
        while index < queue.count, index < 64 {
            let offset = queue[index]
            index += 1
            guard offset >= 8, let count = u16(offset), count <= 4096, offset + 6 + count * 12 <= exif.count else { continue }
            for entry in 0..<count {
                let at = offset + 2 + entry * 12
                guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4) else { continue }
                if tag == 0x8825 && stripLocation { found.append("GPSInfo pointer in the directory at \(offset)") }
                if tag == 0x0112 && upright {
                    let value = type == 3 && n == 1 ? u16(at + 8) : type == 4 && n == 1 ? u32(at + 8) : nil
                    if value != 1 { found.append("Orientation \(value.map(String.init) ?? "?") in the directory at \(offset)") }
                }
                guard [0x8769, 0x8825, 0xA005].contains(tag), [3, 4, 13].contains(type), n >= 1 else { continue }
                let size = type == 3 ? 2 : 4
                guard let valueAt = n * size <= 4 ? at + 8 : u32(at + 8),
                      n * size <= 4 || (valueAt >= 8 && n * size <= exif.count - valueAt) else { continue }
                for i in 0..<min(n, 16) {
                    if let target = size == 2 ? u16(valueAt + i * 2) : u32(valueAt + i * 4), seen.insert(target).inserted {
                        queue.append(target)
                    }
                }
            }
            if let next = u32(offset + 2 + count * 12), next != 0, seen.insert(next).inserted { queue.append(next) }
        }
        return found
    }

    /// Writes a TIFF structure: the header, then each directory followed by its out-of-line values.
    struct TIFFWriter {
        /// An entry; a pointer names the directory (by index) whose offset it holds.
        enum Field {
            case short(UInt16, Int)
            case ascii(UInt16, String)
            case undefined(UInt16, [UInt8])
            case bytes(UInt16, [UInt8])
            case rationals(UInt16, [(UInt32, UInt32)])
            case pointer(UInt16, type: Int, to: Int)

            var tag: UInt16 {
                switch self {
                case .short(let tag, _), .ascii(let tag, _), .undefined(let tag, _), .bytes(let tag, _),
                     .rationals(let tag, _), .pointer(let tag, _, _): tag
                }
            }
        }

        let littleEndian: Bool

        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }

        func u32(_ v: UInt32) -> [UInt8] {
            let bytes = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return littleEndian ? bytes.reversed() : bytes
        }

        /// Type, count and value bytes of a field (pointers hold the offset of their directory).
        func encoded(_ field: Field, offsets: [Int]) -> (type: Int, count: Int, value: [UInt8]) {
            switch field {
            case .short(_, let v): (3, 1, u16(v))
            case .ascii(_, let text): (2, text.utf8.count + 1, Array(text.utf8) + [0])
            case .undefined(_, let bytes): (7, bytes.count, bytes)
            case .bytes(_, let bytes): (1, bytes.count, bytes)
            case .rationals(_, let values): (5, values.count, values.flatMap { u32($0.0) + u32($0.1) })
            case .pointer(_, let type, let id): (type, 1, u32(UInt32(id < offsets.count ? offsets[id] : 0)))
            }
        }

        /// The bytes one directory and its values take.
        func size(_ fields: [Field]) -> Int {
            fields.reduce(6 + 12 * fields.count) { total, field in
                let value = encoded(field, offsets: []).value.count
                return total + (value > 4 ? value + value % 2 : 0)
            }
        }

        /// The structure of `directories` (fields in any order: they are sorted by tag, duplicates
        /// kept in order); `next` is the index of the directory a directory links to.
        func file(_ directories: [(fields: [Field], next: Int?)]) -> [UInt8] {
            var offsets: [Int] = []
            var at = 8
            for directory in directories {
                offsets.append(at)
                at += size(directory.fields)
            }
            var out = (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8)
            for directory in directories {
                let fields = directory.fields.enumerated().sorted { ($0.element.tag, $0.offset) < ($1.element.tag, $1.offset) }
                var valuesAt = out.count + 6 + 12 * fields.count
                var table = u16(fields.count), values: [UInt8] = []
                for (_, field) in fields {
                    let (type, count, value) = encoded(field, offsets: offsets)
                    table += u16(Int(field.tag)) + u16(type) + u32(UInt32(count))
                    if value.count <= 4 {
                        table += value + [UInt8](repeating: 0, count: 4 - value.count)
                    } else {
                        table += u32(UInt32(valuesAt))
                        values += value + (value.count % 2 == 1 ? [0] : [])
                        valuesAt += value.count + value.count % 2
                    }
                }
                let next = directory.next.map { UInt32(offsets[$0]) } ?? 0
                out += table + u32(next) + values
            }
            return out
        }
    }
}
