/// Present (true) when every pixel is known to be opaque, so encoders need no scan. Kept by a
/// geometry change that covers the output with input pixels; dropped when pixel values change (the
/// stage that changed them sets it again when it knows) or when the change is not described.
public enum KnownOpaque: SideDataKind {
    public typealias Value = Bool
    public static let name = "opaque"
    public static func transform(_ value: Bool, by change: ImageChange) -> Bool? {
        switch change {
        case .geometry(let t): t.coversOutput ? value : nil
        case .pixels, .unknown: nil
        }
    }
}
