/// A kind of side data: what one entry beside an image's pixels holds, and what becomes of it when a
/// stage changes the image (GStreamer's `GstMeta` with its transform function).
///
/// ```swift
/// enum CaptureRectangles: SideDataKind {
///     static let name = "capture-rects"
///     static func transform(_ rects: [Rect?], by change: ImageChange) -> [Rect?]? { ... }
/// }
/// image.metadata.sideData[CaptureRectangles.self] = rects
/// ```
public protocol SideDataKind: Sendable {
    associatedtype Value: Sendable
    /// The entry's key in listings, reports and across the plugin ABI.
    static var name: String { get }
    /// The value after `change`, or nil to drop the entry.
    static func transform(_ value: Value, by change: ImageChange) -> Value?
}

/// The typed entries that travel with an image beside its pixels, each with its declared rule.
public struct SideData: Sendable {
    private var entries: [String: Entry] = [:]

    public init() {}

    private struct Entry: Sendable {
        var value: any Sendable
        var transform: @Sendable (any Sendable, ImageChange) -> (any Sendable)?
    }

    /// The entry of `kind`, if present. Setting nil removes it.
    public subscript<K: SideDataKind>(_ kind: K.Type) -> K.Value? {
        get { entries[K.name]?.value as? K.Value }
        set {
            guard let newValue else { entries[K.name] = nil; return }
            entries[K.name] = Entry(value: newValue) { value, change in
                guard let typed = value as? K.Value else { return nil }
                return K.transform(typed, by: change)
            }
        }
    }

    /// The side data of an image made from this one by `change`: every entry's rule applied.
    public func applying(_ change: ImageChange) -> SideData {
        var result = SideData()
        for (name, entry) in entries {
            if let value = entry.transform(entry.value, change) {
                result.entries[name] = Entry(value: value, transform: entry.transform)
            }
        }
        return result
    }

    /// An entry of a kind declared at run time (a plugin's side-data key), as opaque bytes; nil when
    /// absent or when `name` is a typed kind's.
    public func bytes(named name: String) -> [UInt8]? {
        guard let entry = entries[name] else { return nil }
        return (entry.value as? RegisteredBytes)?.bytes
    }

    /// Sets (or, for nil, removes) an entry of a kind declared at run time: opaque bytes that follow
    /// `rule` through every change.
    public mutating func setBytes(_ bytes: [UInt8]?, named name: String, rule: SideDataRule) {
        guard let bytes else { entries[name] = nil; return }
        entries[name] = Entry(value: RegisteredBytes(bytes: bytes)) { value, change in
            rule.keeps(under: change) ? value : nil
        }
    }

    /// The names of the entries present, sorted.
    public var names: [String] { entries.keys.sorted() }

    public var isEmpty: Bool { entries.isEmpty }
}
