/// The side data of an image as bytes by key, the form it takes across the plugin ABI (see SIDE DATA
/// in `sumi_plugin.h`; the host and the Swift plugin SDK both use it). Each key maps one typed
/// `SideDataKind`; reading and writing go through the typed entries, so a plugin's entry follows the
/// same rules as a built-in stage's afterwards.
public enum SideDataBytes {
    /// The keys a plugin may read and write.
    public static let keys = [ICCProfile.name, EXIFData.name, XMPData.name, StoredOrientation.name,
                       CaptureRectangles.name, SourceFile.name, KnownOpaque.name]

    /// The entry `key` of `metadata` as bytes, or nil when the image has none.
    public static func bytes(of metadata: ImageMetadata, key: String) -> [UInt8]? {
        let side = metadata.sideData
        switch key {
        case ICCProfile.name: return side[ICCProfile.self]
        case EXIFData.name: return side[EXIFData.self]
        case XMPData.name: return side[XMPData.self]
        case StoredOrientation.name:
            return side[StoredOrientation.self].map { [UInt8(clamping: $0.orientation), $0.applied ? 1 : 0] }
        case CaptureRectangles.name:
            return side[CaptureRectangles.self].map { rects in
                rects.flatMap { rect -> [UInt8] in
                    let r = rect ?? Rect(x: .nan, y: .nan, width: .nan, height: .nan)
                    return [r.x, r.y, r.width, r.height].flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
                }
            }
        case SourceFile.name:
            return side[SourceFile.self].map { Array(($0.format ?? "").utf8) + [0] + Array(($0.path ?? "").utf8) }
        case KnownOpaque.name: return side[KnownOpaque.self] == true ? [1] : nil
        default: return nil
        }
    }

    /// Sets (or, for nil, removes) the entry `key`; a key or a value of the wrong shape is an error.
    public static func set(_ bytes: [UInt8]?, key: String, in metadata: inout ImageMetadata) throws(StageError) {
        switch key {
        case ICCProfile.name: metadata.sideData[ICCProfile.self] = bytes
        case EXIFData.name: metadata.sideData[EXIFData.self] = bytes
        case XMPData.name: metadata.sideData[XMPData.self] = bytes
        case StoredOrientation.name:
            guard let bytes else { metadata.sideData[StoredOrientation.self] = nil; return }
            guard bytes.count == 2, (1...8).contains(bytes[0]), bytes[1] <= 1 else {
                throw StageError("side data \"\(key)\" takes 2 bytes: an orientation 1...8, then 0 or 1")
            }
            metadata.sideData[StoredOrientation.self] = StoredOrientation.Value(orientation: Int(bytes[0]), applied: bytes[1] == 1)
        case CaptureRectangles.name:
            guard let bytes else { metadata.sideData[CaptureRectangles.self] = nil; return }
            guard bytes.count % 32 == 0 else {
                throw StageError("side data \"\(key)\" takes 32 bytes a capture (4 little-endian doubles), got \(bytes.count)")
            }
            var rects: [Rect?] = []
            for start in stride(from: 0, to: bytes.count, by: 32) {
                let d = (0..<4).map { i in
                    Double(bitPattern: bytes[(start + i * 8)..<(start + i * 8 + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
                }
                if d.contains(where: { $0.isNaN }) { rects.append(nil); continue }
                guard d.allSatisfy(\.isFinite), d[2] >= 0, d[3] >= 0 else {
                    throw StageError("side data \"\(key)\": capture \(rects.count + 1) is not a rectangle")
                }
                rects.append(Rect(x: d[0], y: d[1], width: d[2], height: d[3]))
            }
            metadata.sideData[CaptureRectangles.self] = rects.isEmpty ? nil : rects
        case SourceFile.name:
            guard let bytes else { metadata.sideData[SourceFile.self] = nil; return }
            let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
            let format = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let path = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
            metadata.sideData[SourceFile.self] = SourceFile.Value(format: format.isEmpty ? nil : format,
                                                                  path: path.isEmpty ? nil : path)
        case KnownOpaque.name:
            guard let bytes else { metadata.sideData[KnownOpaque.self] = nil; return }
            guard bytes == [1] || bytes == [0] else { throw StageError("side data \"\(key)\" takes 1 byte, 0 or 1") }
            metadata.sideData[KnownOpaque.self] = bytes == [1] ? true : nil
        default:
            throw StageError("unknown side data \"\(key)\" (known: \(keys.joined(separator: ", ")))")
        }
    }
}
