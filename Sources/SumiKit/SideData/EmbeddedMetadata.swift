/// The ICC colour profile the pixels are in (the bytes of the profile). Kept under every change:
/// stages keep pixels in the source's colour space unless they convert them, and a stage that
/// converts sets the new profile itself.
public enum ICCProfile: SideDataKind {
    public typealias Value = [UInt8]
    public static let name = "icc-profile"
    public static func transform(_ value: [UInt8], by change: ImageChange) -> [UInt8]? { value }
}

/// The source's EXIF block (TIFF header and IFDs, without the `Exif\0\0` prefix). Kept under every
/// change; encoders bring the orientation and pixel dimensions up to date when they write it.
public enum EXIFData: SideDataKind {
    public typealias Value = [UInt8]
    public static let name = "exif"
    public static func transform(_ value: [UInt8], by change: ImageChange) -> [UInt8]? { value }
}

/// The source's XMP packet (UTF-8 XML). Kept under every change.
public enum XMPData: SideDataKind {
    public typealias Value = [UInt8]
    public static let name = "xmp"
    public static func transform(_ value: [UInt8], by change: ImageChange) -> [UInt8]? { value }
}
