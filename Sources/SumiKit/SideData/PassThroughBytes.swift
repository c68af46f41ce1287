/// The encoded bytes of the source file, kept while they still describe the pixels exactly, so an
/// encoder or `pdf-page` can copy them instead of encoding again (an untouched JPEG). Dropped by
/// every change.
public enum PassThroughBytes: SideDataKind {
    public typealias Value = [UInt8]
    public static let name = "pass-through-bytes"
    public static func transform(_ value: [UInt8], by change: ImageChange) -> [UInt8]? { nil }
}
