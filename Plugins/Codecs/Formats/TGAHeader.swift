import SumiKit

/// A Truevision TGA file's header, colour map and layout: colour-mapped (types 1 and 9), true
/// colour (2 and 10) and grey (3 and 11, 8-bit, or 16 with alpha) images, run-length encoded or not, 8, 15, 16, 24 and 32
/// bits a pixel, any origin corner. Alpha is read as the file says it has one: the attribute type of
/// a version 2 file's extension area when it gives one, else the descriptor's count of alpha bits.
struct TGAHeader {
    enum Kind { case colourMapped, trueColour, grey }

    let width: Int
    let height: Int
    let kind: Kind
    let runLength: Bool
    let bitsPerPixel: Int
    /// Stored rows go top to bottom (else bottom to top), and right to left.
    let topDown: Bool
    let rightToLeft: Bool
    /// Where the pixel data starts.
    let dataOffset: Int
    /// Straight RGBA (red in the low byte) of each colour-map index; indexes below the map's first
    /// entry and past its end are opaque black.
    let palette: [UInt32]
    /// Alpha is read from the pixels (else every pixel is opaque).
    let hasAlpha: Bool
    /// The pixels hold premultiplied colour (a version 2 file's attribute type 4).
    let premultiplied: Bool

    var bytesPerPixel: Int { (bitsPerPixel + 7) / 8 }

    /// Whether the first bytes look like a TGA header (it has no magic number: every field must
    /// hold a value the format allows).
    static func plausible(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18 else { return false }
        let mapType = bytes[1], type = bytes[2], depth = bytes[16], descriptor = bytes[17]
        let width = Int(bytes[12]) | Int(bytes[13]) << 8, height = Int(bytes[14]) | Int(bytes[15]) << 8
        guard mapType <= 1, [1, 2, 3, 9, 10, 11].contains(type), width > 0, height > 0, descriptor & 0xC0 == 0 else { return false }
        switch type & 7 {
        case 1: return mapType == 1 && depth == 8 && [15, 16, 24, 32].contains(bytes[7])
        case 2: return [15, 16, 24, 32].contains(depth) && (mapType == 0 || [15, 16, 24, 32].contains(bytes[7]))
        default: return (depth == 8 || depth == 16) && (mapType == 0 || [15, 16, 24, 32].contains(bytes[7]))
        }
    }

    init(_ bytes: [UInt8], name: String) throws(StageError) {
        guard Self.plausible(bytes) else { throw StageError("\(name): not a TGA file (its header holds values the format does not allow)") }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        let idLength = Int(bytes[0]), mapType = bytes[1], type = bytes[2], descriptor = bytes[17]
        width = u16(12)
        height = u16(14)
        bitsPerPixel = Int(bytes[16])
        runLength = type & 8 != 0
        kind = switch type & 7 { case 1: .colourMapped; case 2: .trueColour; default: .grey }
        topDown = descriptor & 0x20 != 0
        rightToLeft = descriptor & 0x10 != 0
        let mapFirst = u16(3), mapLength = u16(5), mapDepth = Int(bytes[7])
        let mapEntryBytes = mapType == 1 ? (mapDepth + 7) / 8 : 0
        let mapStart = 18 + idLength
        dataOffset = mapStart + mapLength * mapEntryBytes
        guard dataOffset <= bytes.count else {
            throw StageError("\(name): truncated TGA data (the colour map ends at byte \(dataOffset), the file has \(bytes.count))")
        }
        // The version 2 footer's extension area says what the alpha channel holds.
        var attributes: UInt8?
        if bytes.count >= 18 + 26, bytes.suffix(18).elementsEqual(Array("TRUEVISION-XFILE.".utf8) + [0]) {
            let footer = bytes.count - 26
            let extensionOffset = Int(bytes[footer]) | Int(bytes[footer + 1]) << 8 | Int(bytes[footer + 2]) << 16 | Int(bytes[footer + 3]) << 24
            if extensionOffset >= 18, extensionOffset + 495 <= footer { attributes = bytes[extensionOffset + 494] }
        }
        let alphaBits = Int(descriptor & 0x0F)
        let depth = kind == .colourMapped ? mapDepth : bitsPerPixel
        // 16-bit grey is grey and alpha.
        let carriesAlpha = depth == 32 || depth == 16
        switch attributes {
        case 3?, 4?: hasAlpha = carriesAlpha
        case .some: hasAlpha = false
        case nil: hasAlpha = carriesAlpha && alphaBits > 0
        }
        premultiplied = attributes == 4 && hasAlpha
        var palette: [UInt32] = []
        if kind == .colourMapped {
            // Index i is entry i - mapFirst of the stored map.
            palette = [UInt32](repeating: 0xFF00_0000, count: mapFirst + mapLength)
            for entry in 0..<mapLength {
                palette[mapFirst + entry] = StoredBGR.rgba(bytes, at: mapStart + entry * mapEntryBytes, bits: mapDepth, alpha: hasAlpha)
            }
        }
        self.palette = palette
    }
}
