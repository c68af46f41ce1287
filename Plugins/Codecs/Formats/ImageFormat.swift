/// The image file formats the codecs read and write, recognised by their magic bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, bmp, tiff, webp

    /// The formats `encode` can write.
    public static let writable: [ImageFormat] = [.png, .jpeg, .webp, .tiff, .bmp]

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
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else { return nil }
    }

    /// The format a file extension names (`jpg` and `jpeg` are both JPEG), case-insensitively.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "gif": self = .gif
        case "bmp", "dib": self = .bmp
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        default: return nil
        }
    }

    /// Whether the format stores an alpha channel (the others flatten onto a background).
    public var carriesAlpha: Bool {
        switch self {
        case .png, .gif, .tiff, .webp: true
        case .jpeg, .bmp: false
        }
    }

    /// The name used in messages ("JPEG", "PNG", ...).
    public var displayName: String {
        switch self {
        case .webp: "WebP"
        default: rawValue.uppercased()
        }
    }
}
