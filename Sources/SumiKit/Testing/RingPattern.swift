/// How `StageHarness.runRows(_:inputs:pattern:)` drives the rings around a stage: every ring holds
/// `capacity` rows (as `RowStream(capacity:)`), the harness publishes each input in `bands`, and
/// reads and releases the stage's output in `consumerBands` (both cycled). A band larger than the
/// ring is published as several reservations of at most `capacity` rows, since no producer may
/// reserve more; a consumer band is cut to the ring's capacity for the same reason.
public struct RingPattern: Sendable, CustomStringConvertible {
    public let capacity: Int
    public let bands: [Int]
    public let consumerBands: [Int]

    /// `consumerBands` defaults to `bands`.
    public init(capacity: Int, bands: [Int], consumerBands: [Int]? = nil) {
        self.capacity = capacity
        self.bands = bands
        self.consumerBands = consumerBands ?? bands
    }

    /// The patterns every streaming stage is tested with: a ring of one row; odd bands that never
    /// line up with the ring or with each other; bands of a JPEG MCU row; bands that wrap at odd
    /// places; and the engine's own ring size with decoder-sized bands.
    public static let standard: [RingPattern] = [
        RingPattern(capacity: 1, bands: [1]),
        RingPattern(capacity: 5, bands: [3, 7, 1], consumerBands: [2, 5]),
        RingPattern(capacity: 16, bands: [16]),
        RingPattern(capacity: 7, bands: [2, 5], consumerBands: [7, 1, 3]),
        RingPattern(capacity: RowStream.defaultCapacity, bands: [16], consumerBands: [RowStream.defaultCapacity]),
    ]

    public var description: String { "a ring of \(capacity) rows, bands \(bands) in, \(consumerBands) out" }

    /// Whether `error` is a ring of this pattern refusing a band larger than it holds (a consumer
    /// that asked for more rows than its capacity, or a producer that reserved more): what a stage
    /// that assumes bands of a fixed height meets on a smaller ring.
    public func refusedBand(_ error: any Error) -> Bool {
        let text = "\(error)"
        return text.contains("of a stream that holds \(capacity)") || text.contains("larger than the ring's \(capacity)")
    }

    /// Throws unless the ring and every band are at least one row.
    func check() throws {
        guard capacity >= 1, !bands.isEmpty, !consumerBands.isEmpty, (bands + consumerBands).allSatisfy({ $0 >= 1 }) else {
            throw StageError("a ring pattern needs a capacity and bands of at least one row: \(self)")
        }
    }
}

/// A pattern of band heights, taken in turn and started over at the end.
struct BandCycle {
    private let heights: [Int]
    private var next = 0

    init(_ heights: [Int]) { self.heights = heights }

    mutating func take() -> Int {
        defer { next = (next + 1) % heights.count }
        return heights[next]
    }
}
