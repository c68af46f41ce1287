/// The size of the full image when a decoder produced a reduced one (JPEG DCT scaling for a
/// following shrink), so the consumer plans its output from the true aspect ratio. Kept when only
/// pixel values change; dropped by any change of geometry (the resize it was meant for has happened).
public enum ReducedDecodeSize: SideDataKind {
    public typealias Value = Size
    public static let name = "full-size"
    public static func transform(_ value: Size, by change: ImageChange) -> Size? {
        change == .pixels ? value : nil
    }
}
