/// What becomes of a side-data entry declared at run time (a plugin's key, whose bytes the host
/// cannot interpret) when a stage changes the image: kept or dropped when pixel values change, and
/// when pixels move; a change nobody describes (`.unknown`) keeps it only when both rules keep it.
/// GStreamer's `GstMeta` tags play the same part.
public struct SideDataRule: Sendable, Hashable {
    public var keepsOnPixels: Bool
    public var keepsOnGeometry: Bool

    public init(keepsOnPixels: Bool, keepsOnGeometry: Bool) {
        self.keepsOnPixels = keepsOnPixels
        self.keepsOnGeometry = keepsOnGeometry
    }

    /// Whether an entry under this rule survives `change`.
    public func keeps(under change: ImageChange) -> Bool {
        switch change {
        case .pixels: keepsOnPixels
        case .geometry: keepsOnGeometry
        case .unknown: keepsOnPixels && keepsOnGeometry
        }
    }
}

/// The value of an entry declared at run time: its bytes, uninterpreted (a type of its own, so a
/// typed kind's bytes are never taken for one).
struct RegisteredBytes: Sendable {
    var bytes: [UInt8]
}
