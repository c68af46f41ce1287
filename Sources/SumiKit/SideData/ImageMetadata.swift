/// What travels with an image besides its pixels: typed side-data entries (`SideData`), each with
/// its own rule for what a change of pixels or geometry does to it.
///
/// The named properties are shorthands for the standard entries. A stage that makes an image from
/// another states what it did with `applying(_:)` (`.pixels`, `.geometry(transform)` or
/// `.unknown`); it never clears entries of other stages by hand.
public struct ImageMetadata: Sendable {
    public var sideData: SideData

    public init(sourceFormat: String? = nil, sourcePath: String? = nil, sourceBytes: [UInt8]? = nil,
                sourceOrientation: Int = 1, orientationApplied: Bool = true, knownOpaque: Bool = false,
                captureRects: [Rect] = []) {
        sideData = SideData()
        if sourceFormat != nil || sourcePath != nil {
            sideData[SourceFile.self] = SourceFile.Value(format: sourceFormat, path: sourcePath)
        }
        sideData[PassThroughBytes.self] = sourceBytes
        if sourceOrientation != 1 || !orientationApplied {
            sideData[StoredOrientation.self] = StoredOrientation.Value(orientation: sourceOrientation, applied: orientationApplied)
        }
        if knownOpaque { sideData[KnownOpaque.self] = true }
        if !captureRects.isEmpty { sideData[CaptureRectangles.self] = captureRects.map { $0 } }
    }

    /// The metadata of an image made from this one by `change`: every entry's rule applied.
    public func applying(_ change: ImageChange) -> ImageMetadata {
        var copy = self
        copy.sideData = sideData.applying(change)
        return copy
    }

    /// The format the image was decoded from (`jpeg`, `png`, ...), if it was decoded.
    public var sourceFormat: String? {
        get { sideData[SourceFile.self]?.format }
        set { sideData[SourceFile.self] = SourceFile.Value(format: newValue, path: sourcePath) }
    }
    /// The file the image was decoded from, if any.
    public var sourcePath: String? {
        get { sideData[SourceFile.self]?.path }
        set { sideData[SourceFile.self] = SourceFile.Value(format: sourceFormat, path: newValue) }
    }
    /// The encoded bytes of the source while they can be passed through unchanged.
    public var sourceBytes: [UInt8]? {
        get { sideData[PassThroughBytes.self] }
        set { sideData[PassThroughBytes.self] = newValue }
    }
    /// The EXIF orientation (1–8) found in the source.
    public var sourceOrientation: Int {
        get { sideData[StoredOrientation.self]?.orientation ?? 1 }
        set { sideData[StoredOrientation.self] = StoredOrientation.Value(orientation: newValue, applied: orientationApplied) }
    }
    /// Whether that orientation has been applied to the pixels (the image is upright).
    public var orientationApplied: Bool {
        get { sideData[StoredOrientation.self]?.applied ?? true }
        set { sideData[StoredOrientation.self] = StoredOrientation.Value(orientation: sourceOrientation, applied: newValue) }
    }
    /// Whether every pixel is known to be opaque, so `isOpaque` needs no scan.
    public var knownOpaque: Bool {
        get { sideData[KnownOpaque.self] ?? false }
        set { sideData[KnownOpaque.self] = newValue ? true : nil }
    }
    /// The full image's size when a decoder produced a reduced one.
    public var fullSize: Size? {
        get { sideData[ReducedDecodeSize.self] }
        set { sideData[ReducedDecodeSize.self] = newValue }
    }
    public var fullWidth: Int? { fullSize.map { Int($0.width) } }
    public var fullHeight: Int? { fullSize.map { Int($0.height) } }
    /// The rectangles of stitched captures in pixels of this image, in capture order; nil for a
    /// capture whose rectangle a change of geometry made unknown or moved out of the image.
    public var captureRects: [Rect?] {
        get { sideData[CaptureRectangles.self] ?? [] }
        set { sideData[CaptureRectangles.self] = newValue.isEmpty ? nil : newValue }
    }

    /// The embedded ICC profile (RGB), or nil for sRGB / untagged.
    public var iccProfile: [UInt8]? {
        get { sideData[ICCProfile.self] }
        set { sideData[ICCProfile.self] = newValue }
    }
    /// The EXIF block as a TIFF structure (from its `II*\0`/`MM\0*` header, no `Exif\0\0` prefix).
    public var exif: [UInt8]? {
        get { sideData[EXIFData.self] }
        set { sideData[EXIFData.self] = newValue }
    }
    /// The XMP packet (UTF-8 XML).
    public var xmp: [UInt8]? {
        get { sideData[XMPData.self] }
        set { sideData[XMPData.self] = newValue }
    }
}
