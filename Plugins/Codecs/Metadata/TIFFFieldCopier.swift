/// Copies TIFF directory entries — with their values, and the EXIF and GPS sub-directories they
/// point to — from one TIFF structure into another, converting the byte order: how EXIF gets into a
/// TIFF file's IFD0 (and back out of one into an EXIF block).
///
/// The interoperability directory is left out, and so are maker notes whose offsets count from the
/// block they came from (they would point at the wrong bytes after the move); a self-contained
/// maker note (`MakerNote.isSelfContained`) is copied as an opaque blob, as exiftool does.
struct TIFFFieldCopier {
    /// One entry to write: either copied raw (its value offsets already valid in the target) or a
    /// value in the target's byte order, or a pointer to a sub-directory to copy first.
    enum Value {
        case raw([UInt8])
        case data(type: Int, count: Int, bytes: [UInt8])
        case subdirectory(EXIFBlock.Directory)
    }

    static let ifd0MetadataTags: Set<UInt16> = [270, 271, 272, 274, 305, 306, 315, 33432]
    static let makerNoteTag: UInt16 = 0x927C
    static let skippedSubTags: Set<UInt16> = [EXIFBlock.interopPointerTag]

    let source: EXIFBlock
    /// The target so far; directories and values are appended.
    var out: [UInt8]
    let littleEndian: Bool

    init(source: EXIFBlock, target: [UInt8], littleEndian: Bool) {
        self.source = source
        self.out = target
        self.littleEndian = littleEndian
    }

    func bytes16(_ v: Int) -> [UInt8] {
        littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    func bytes32(_ v: Int) -> [UInt8] {
        littleEndian ? bytes16(v & 0xFFFF) + bytes16(v >> 16 & 0xFFFF) : bytes16(v >> 16 & 0xFFFF) + bytes16(v & 0xFFFF)
    }

    mutating func set32(_ v: Int, at offset: Int) {
        for (i, b) in bytes32(v).enumerated() { out[offset + i] = b }
    }

    /// The value of a source entry in the target's byte order, or nil when it lies outside the source.
    func value(of entry: EXIFBlock.Entry) -> Value? {
        guard let range = entry.value, let size = EXIFBlock.typeSize(entry.type) else { return nil }
        var bytes = Array(source.bytes[range])
        let element = [5, 10].contains(entry.type) ? 4 : size
        if element > 1 && source.littleEndian != littleEndian {
            var i = 0
            while i + element <= bytes.count {
                bytes[i..<(i + element)].reverse()
                i += element
            }
        }
        return .data(type: entry.type, count: entry.count, bytes: bytes)
    }

    /// The entries of a source directory to copy (pointers to the EXIF and GPS directories become
    /// sub-directory copies; `only` limits the other tags).
    func fields(of directory: EXIFBlock.Directory, only: Set<UInt16>? = nil) -> [(UInt16, Value)] {
        var result: [(UInt16, Value)] = []
        for entry in directory.entries where !TIFFFieldCopier.skippedSubTags.contains(entry.tag) {
            if entry.tag == EXIFBlock.exifPointerTag || entry.tag == EXIFBlock.gpsPointerTag {
                if let sub = source.subdirectory(entry.tag, in: directory) { result.append((entry.tag, .subdirectory(sub))) }
                continue
            }
            if let only, !only.contains(entry.tag) { continue }
            if entry.tag == TIFFFieldCopier.makerNoteTag {
                guard let range = entry.value, MakerNote.isSelfContained(source.bytes[range], littleEndian: source.littleEndian) else {
                    continue
                }
            }
            if let value = value(of: entry) { result.append((entry.tag, value)) }
        }
        return result
    }

    /// Appends a directory of `list` (sorted by tag, later duplicates dropped) with its values,
    /// and returns its offset.
    mutating func appendDirectory(_ list: [(UInt16, Value)], next: Int = 0) -> Int {
        var seen = Set<UInt16>()
        let sorted = list.filter { seen.insert($0.0).inserted }.sorted { $0.0 < $1.0 }
        var entries: [[UInt8]] = []
        for (tag, value) in sorted {
            switch value {
            case .raw(let entry):
                entries.append(entry)
            case .subdirectory(let directory):
                let offset = appendDirectory(fields(of: directory))
                entries.append(bytes16(Int(tag)) + bytes16(4) + bytes32(1) + bytes32(offset))
            case .data(let type, let count, var bytes):
                var field = bytes16(Int(tag)) + bytes16(type) + bytes32(count)
                if bytes.count <= 4 {
                    bytes += [UInt8](repeating: 0, count: 4 - bytes.count)
                    field += bytes
                } else {
                    if out.count & 1 == 1 { out.append(0) }
                    field += bytes32(out.count)
                    out += bytes
                }
                entries.append(field)
            }
        }
        if out.count & 1 == 1 { out.append(0) }
        let offset = out.count
        out += bytes16(entries.count)
        for entry in entries { out += entry }
        out += bytes32(next)
        return offset
    }
}
