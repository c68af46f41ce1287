/// A width and height, in pixels or layout units depending on where it is used.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public var description: String { "\(formatNumber(width))x\(formatNumber(height))" }
}

/// A point; +x right, +y down unless a stage says otherwise.
public struct Point: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public var description: String { "\(formatNumber(x)),\(formatNumber(y))" }
}

/// An axis-aligned rectangle: origin and size.
public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var description: String {
        [x, y, width, height].map(formatNumber).joined(separator: ",")
    }
}

/// Formats a number without a trailing ".0" when it is whole.
public func formatNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
}
