/// The EXIF orientation (1–8) found in the source, and whether the decoder applied it (the pixels
/// are then upright). Kept under every change: later stages only ask whether the image is upright.
public enum StoredOrientation: SideDataKind {
    public struct Value: Sendable, Equatable {
        public var orientation: Int
        public var applied: Bool
        public init(orientation: Int, applied: Bool) { self.orientation = orientation; self.applied = applied }
    }
    public static let name = "exif-orientation"
    public static func transform(_ value: Value, by change: ImageChange) -> Value? { value }
}
