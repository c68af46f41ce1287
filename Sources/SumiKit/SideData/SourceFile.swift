/// Where an image was decoded from: the format and the file (nil for standard input or an image
/// made in memory). Kept under every change: it names the origin, not the pixels.
public enum SourceFile: SideDataKind {
    public struct Value: Sendable, Equatable {
        public var format: String?
        public var path: String?
        public init(format: String?, path: String?) { self.format = format; self.path = path }
    }
    public static let name = "source"
    public static func transform(_ value: Value, by change: ImageChange) -> Value? { value }
}
