/// What a `RowStream` side is waiting for when it would block.
public enum RowStreamWait: Sendable, Equatable, CustomStringConvertible {
    /// The consumer waits for the producer's `begin`.
    case start
    /// The consumer waits until rows below `through` are published (and, for the last row, until
    /// the producer ended).
    case rows(through: Int)
    /// The producer waits until the consumer released enough rows for rows below `through` to fit.
    case room(through: Int)
    /// The consumer waits for the producer's end.
    case end

    public var description: String {
        switch self {
        case .start: "the start of the image"
        case .rows(let row): "rows up to \(row)"
        case .room(let row): "room in the ring for rows up to \(row)"
        case .end: "the end of the image"
        }
    }
}

/// What a driven `RowStream` tells its driver after the fact.
public enum RowStreamEvent: Sendable, Equatable {
    /// Rows `rows` were published (the producer may no longer write them).
    case published(Range<Int>)
    /// Rows `rows` were released (the consumer may no longer read them; their slots are free).
    case released(Range<Int>)
    /// A call is about to throw this message: a wait stalled (`RowStream.Stalled`), or a side broke
    /// the contract (asked for or reserved a band larger than the ring, published rows it had not
    /// reserved).
    case problem(String)
}

/// Stands in for the other side of a `RowStream` in a test, so that a stage runs alone on the test's
/// thread, deterministically, with no threads or sleeps (as GStreamer's `GstHarness` or NIO's
/// `EmbeddedChannel` stand in for a pipeline). `StageHarness.runRows(_:inputs:capacity:bands:)`
/// drives each ring around the stage with one: on an input stream it publishes the next band of the
/// source image when the stage waits for rows, and overwrites rows as soon as the stage releases
/// them; on the output stream it reads and releases published rows in its own bands when the stage
/// waits for room, and checks that no row changes once published.
///
/// The stream calls the driver without holding its lock, so the driver uses the stream's ordinary
/// producer or consumer calls. A driver must not keep the stream it drives (the stream keeps the
/// driver).
public protocol RowStreamDriver: AnyObject {
    /// The stage's side of `stream` would block on `wait`: make the other side move (publish,
    /// finish, release), or throw. Changing nothing makes the wait throw `RowStream.Stalled`.
    func unblock(_ stream: RowStream, waitingFor wait: RowStreamWait) throws

    /// Something happened on `stream` (see `RowStreamEvent`).
    func observe(_ stream: RowStream, _ event: RowStreamEvent)
}
