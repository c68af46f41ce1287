/// The image file formats the built-in codecs read and write, recognised by their magic bytes:
/// what `BuiltinCodecs` registers, each with its extensions, reader and writer.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, bmp, tiff, webp
    /// HEIF with HEVC images (HEIC, as phones write it) and AVIF (HEIF with AV1 images), via libheif.
    case heif, avif
    /// Read by Sumi's own readers: Windows icons and cursors (the largest entry), Truevision TGA, QOI.
    case ico, tga, qoi
    /// JPEG 2000 (a JP2 file or a J2K codestream), via libopenjp2 opened on first use.
    case jp2

    /// The format of encoded bytes, from their first bytes (never from a file name).
    public init?(detecting bytes: [UInt8]) {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("BM".utf8)) && bytes.count >= 26 { self = .bmp }
        else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else if starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { self = .tiff }   // BigTIFF
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else if let format = ImageFormat.isoMediaFormat(bytes) { self = format }
        else if starts(Array("qoif".utf8)) && bytes.count >= 14 { self = .qoi }
        else if starts([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { self = .jp2 }
        else if ICOFile.plausible(bytes) { self = .ico }
        // TGA has no magic number: a header whose every field is one the format allows, asked last.
        else if TGAHeader.plausible(bytes) { self = .tga }
        else { return nil }
    }

    /// HEIF or AVIF from an ISO media `ftyp` box: its major brand, else its compatible brands.
    static func isoMediaFormat(_ bytes: [UInt8]) -> ImageFormat? {
        guard bytes.count >= 16, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return nil }
        let size = min(bytes.count, max(16, Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])))
        let heif: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]
        func brand(_ at: Int) -> String { String(decoding: bytes[at..<(at + 4)], as: UTF8.self) }
        let major = brand(8)
        if major == "avif" || major == "avis" { return .avif }
        if major == "mif1" || major == "msf1" {
            let compatible = stride(from: 16, to: size - 3, by: 4).map(brand)
            if compatible.contains("avif") && !compatible.contains(where: { $0.hasPrefix("he") }) { return .avif }
        }
        return heif.contains(major) ? .heif : nil
    }

    /// The name used in messages ("JPEG", "PNG", ...).
    public var displayName: String {
        switch self {
        case .webp: "WebP"
        case .ico: "ICO"
        case .jp2: "JPEG 2000"
        default: rawValue.uppercased()
        }
    }
}
