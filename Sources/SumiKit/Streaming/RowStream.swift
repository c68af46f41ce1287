#if canImport(Glibc)
import Glibc
#endif

/// An image handed from one stage to the next row by row while it is still being produced, through
/// a bounded ring of rows: memory stays at `capacity` rows whatever the image's height, and the
/// stages on either side work at the same time on different bands.
///
/// Rows are named by their absolute index (0 at the top). Row `y` lives at ring slot
/// `y % slots` (`row(_:)`), so a band may wrap around the end of the ring; C code computes the
/// same address from `ring`.
///
/// `capacity` is the largest band either side may ask for; the ring holds `slots` = twice that
/// (capped at the height). With one ring of `capacity` rows, a producer's band and a consumer's band
/// that do not line up could each wait for the other (a producer that published 40 rows and reserves
/// 48 more waits for the consumer to release row 40, while the consumer, at row 32 in bands of 16,
/// waits for row 48): with twice the room, a reservation of at most `capacity` rows always fits once
/// the consumer has released what it read, and a consumer's band of at most `capacity` rows is always
/// published first.
///
/// The producer:
/// 1. `begin(_:)` with the image's size and side data (consumers that need only these go on at once);
/// 2. for each band: `reserve(through: y1)` — blocks while the consumer still holds the slots —,
///    writes rows up to `y1` through `row(_:)`, then `publish(through: y1)`;
/// 3. returns. The runner calls `finish()` once the producer returned without error: only then is
///    the last row final (a decoder can publish every row and still fail on the trailer).
///
/// The consumer: `waitForStart()`, then `waitForRows(through: y1)`, reads rows from the last
/// released one up to `y1`, and `release(through: y1)` when it no longer needs them. It may hold at
/// most `capacity` rows; asking for more is an error, not a deadlock. A consumer must not make any
/// lasting effect (rename an output into place) before `waitForEnd()` returned.
///
/// Either side's failure reaches the other: `fail(_:)` wakes every wait, which then throws
/// `ProducerFailed` (the runner reports the failing stage's own error).
///
/// A test can run one stage on one thread by giving the stream a `RowStreamDriver` that stands in
/// for the other side: wherever a wait would block (`waitForStart`, `waitForRows`, `reserve`,
/// `waitForEnd`), the stream asks the driver to make progress instead (publish the next band of a
/// source image, or read and release published rows), and throws `Stalled` when the driver could
/// not change anything — the run would have hung. A driven stream also reports a broken contract
/// (a band larger than the ring, rows published that were not reserved) to the driver and throws,
/// rather than stopping the process. Streams without a driver (every stream the engine makes) wait
/// on their lock as described above.
public final class RowStream: @unchecked Sendable {
    /// The default ring size in rows: a few JPEG MCU rows (16 each at 4:2:0), so a decoder and an
    /// encoder each hold one band while a third is in flight.
    public static let defaultCapacity = 48

    private let lock = ConditionLock()
    private var shapeValue: ImageShape?
    private var ended = false
    private var published = 0
    private var reserved = 0
    private var released = 0
    private var failure: (any Error)?
    private var discarding = false
    /// What a thread asleep on the lock waits for, so that `publish` and `release` wake it only
    /// when its wait can end (a decoder publishing a row or two at a time woke a consumer waiting
    /// for a band of sixteen at every row: 170 context switches a thumbnail request). The fewest
    /// published rows a waiting consumer needs, and how many of them wait; the fewest released
    /// rows a waiting producer needs, and how many wait. With several waiters the smallest need
    /// stays until all left: more wake-ups, never fewer. Every other change (begin, finish, fail,
    /// discard, a frame handed over) wakes every waiter.
    private var rowsWanted = Int.max, rowWaiters = 0
    private var releasedWanted = Int.max, roomWaiters = 0
    /// The ring's bytes, the stream's alone while it holds them: a whole frame (a stream as tall as
    /// its image, or one over a whole image) is the image's own pixels, which `image()` hands over
    /// without a copy.
    private var rows: PixelBuffer?
    /// The address of `rows`' storage, where row `y` is written and read. It belongs to the storage
    /// `rows` keeps alive, and the stream never writes `rows` through Swift, so it never moves.
    private var storage: UnsafeMutablePointer<UInt8>?
    /// Whether `rows` is a whole frame (`image()` hands it over).
    private var isFrame = false
    private var stride = 0
    /// The ring rows asked for at creation (`capacity` is this, capped at the image's height).
    let requestedCapacity: Int
    /// The test's stand-in for the other side (see the type's comment); nil when threads wait.
    private let driver: (any RowStreamDriver)?
    /// The fewest pixels in a band of a tall image (`thinBandPixels`); 0: bands of `capacity` rows.
    private let minimumBandPixels: Int
    /// The largest image `begin` accepts (the run's `PixelLimits`); nil: any the memory allows.
    public let limits: PixelLimits?
    /// The largest band in rows that the producer may reserve, or the consumer wait for, past what
    /// the other side has handed over (the requested capacity, capped at the height once begun).
    public private(set) var capacity: Int
    /// The ring's size in rows: twice `capacity`, capped at the height (see the type's comment).
    public private(set) var slots: Int
    /// The most rows reserved by the producer and not yet released by the consumer at any moment:
    /// the ring's real occupancy, never above `slots`.
    public private(set) var mostRowsHeld = 0

    /// The error a waiting side sees when the other side failed.
    public struct ProducerFailed: Error, Sendable, CustomStringConvertible {
        public init() {}
        public var description: String { "the stream was stopped by a failure elsewhere in the pipeline" }
    }

    /// The error a driven stream's wait throws when its driver could not make the other side move:
    /// under threads, the run would have waited forever.
    public struct Stalled: Error, Sendable, CustomStringConvertible {
        public let wait: RowStreamWait
        public init(_ wait: RowStreamWait) { self.wait = wait }
        public var description: String { "the row stream stalled: \(wait) can never happen (a deadlock under threads)" }
    }

    /// A stream whose ring holds `capacity` rows; `Int.max` holds the whole image (a stream that
    /// collects an image for a consumer that needs it whole). `driver`, for tests only, stands in
    /// for the other side (see the type's comment); the stream keeps it, so it must not keep the
    /// stream.
    /// `limits`, when given, are checked by `begin` before any row is allocated: the engine gives
    /// every stream it makes the run's limits, so no stage makes a larger image by streaming it.
    /// `minimumBandPixels`: for an image taller than `tallRows`, the capacity grows to hold at least
    /// that many pixels (the engine's streams give `thinBandPixels`).
    public init(capacity: Int = RowStream.defaultCapacity, limits: PixelLimits? = nil, driver: (any RowStreamDriver)? = nil,
                minimumBandPixels: Int = 0) {
        self.limits = limits
        self.minimumBandPixels = max(0, minimumBandPixels)
        requestedCapacity = max(1, capacity)
        self.capacity = max(1, capacity)
        slots = max(1, capacity)
        self.driver = driver
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T { try lock.locked(body) }
    private func wake() { lock.broadcast() }

    /// Runs `ready` under the lock until it returns a value (it throws to stop waiting). Between
    /// tries a thread sleeps on the lock; a driven stream asks its driver, and throws `Stalled` when
    /// the driver changed nothing.
    private func waiting<T>(for wait: RowStreamWait, until ready: () throws -> T?) throws -> T {
        guard let driver else {
            return try locked {
                while true {
                    if let value = try ready() { return value }
                    switch wait {
                    case .rows(let row):
                        rowWaiters += 1
                        rowsWanted = min(rowsWanted, row)
                    case .room(let row):
                        roomWaiters += 1
                        releasedWanted = min(releasedWanted, row - slots)
                    case .start, .end: break
                    }
                    lock.wait()
                    switch wait {
                    case .rows:
                        rowWaiters -= 1
                        if rowWaiters == 0 { rowsWanted = .max }
                    case .room:
                        roomWaiters -= 1
                        if roomWaiters == 0 { releasedWanted = .max }
                    case .start, .end: break
                    }
                }
            }
        }
        while true {
            let (value, before) = try locked { (try ready(), progress) }
            if let value { return value }
            try driver.unblock(self, waitingFor: wait)
            if locked({ progress }) == before {
                let stalled = Stalled(wait)
                driver.observe(self, .problem(stalled.description))
                throw stalled
            }
        }
    }

    /// Everything a wait can wait for, to tell whether a driver moved anything (under the lock).
    private var progress: [Int] {
        [published, released, ended ? 1 : 0, shapeValue == nil ? 0 : 1, failure == nil ? 0 : 1, discarding ? 1 : 0]
    }

    /// A broken contract: stops the process, except on a driven stream, whose driver hears of it
    /// and whose caller gets an error (so a test can name the stage that broke it).
    private func misuse(_ message: String) throws {
        guard let driver else { preconditionFailure(message) }
        driver.observe(self, .problem(message))
        throw StageError(message)
    }

    // MARK: Producer

    /// Starts the image: its size and side data become known to consumers, and the ring is allocated
    /// (a stream as tall as the image allocates the image's own pixels, which `image()` hands over).
    public func begin(_ shape: ImageShape) throws {
        try begin(shape, pixels: nil)
    }

    /// `begin`, with the ring over `pixels` (the image's, all rows) when given: without a copy when
    /// the caller handed over the buffer's only reference, else over a copy (copy-on-write), so rows
    /// in a ring are never another image's.
    func begin(_ shape: ImageShape, pixels given: consuming PixelBuffer?) throws {
        guard shape.width >= 0, shape.height >= 0 else {
            throw StageError("cannot stream an image of \(shape.width)x\(shape.height) pixels")
        }
        try limits?.check(width: shape.width, height: shape.height, making: "this stage")
        let rowCount = max(1, min(max(requestedCapacity, Self.bandRows(width: shape.width, height: shape.height, pixels: minimumBandPixels)),
                                  shape.height))
        let ringRows = rowCount > shape.height / 2 ? max(1, shape.height) : 2 * rowCount
        let frame = given != nil || requestedCapacity >= shape.height
        let (area, wide) = shape.width.multipliedReportingOverflow(by: frame ? shape.height : ringRows)
        let (bytes, deep) = area.multipliedReportingOverflow(by: 4)
        guard !wide, !deep else {
            throw StageError("cannot stream an image of \(shape.width)x\(shape.height) pixels: too many bytes")
        }
        var ring = (consume given) ?? PixelBuffer(uninitializedCount: bytes)
        // The ring's storage made the stream's alone (a copy only if an image still shares it); the
        // stream keeps the buffer, and with it the storage at this address, until `image()` hands
        // it over or the stream goes away.
        let base = ring.uniqueMutableBase()
        try locked { [ring] in
            if failure != nil { throw ProducerFailed() }
            precondition(shapeValue == nil, "RowStream.begin called twice")
            rows = ring
            storage = base
            isFrame = frame
            stride = shape.width * 4
            capacity = rowCount
            slots = ringRows
            shapeValue = shape
            wake()
        }
    }

    /// Waits until rows below `row` may be written (the consumer released enough), capped at the
    /// height. Throws when the consumer failed.
    public func reserve(through row: Int) throws {
        guard let height = locked({ shapeValue?.height }) else { return try misuse("RowStream.reserve before begin") }
        let target = min(row, height)
        if locked({ target - published > capacity }) {
            try misuse("RowStream.reserve: a band of \(target - locked { published }) rows, larger than the ring's \(capacity)")
        }
        try waiting(for: .room(through: target)) { () throws -> Void? in
            if discarding { released = published }
            if failure != nil { throw ProducerFailed() }
            guard target - released <= slots else { return nil }
            reserved = max(reserved, target)
            mostRowsHeld = max(mostRowsHeld, reserved - released)
            return ()
        }
    }

    /// Rows below `row` are written and may be read.
    public func publish(through row: Int) {
        let (before, target, unreserved, waking): (Int, Int, Int?, Bool) = locked {
            let before = published, target = min(row, shapeValue?.height ?? 0)
            guard target <= reserved else { return (before, target, target, false) }
            published = max(published, target)
            return (before, target, nil, published >= rowsWanted)
        }
        // After the lock is let go: the consumer woken takes it at once.
        if waking { wake() }
        if let driver, unreserved == nil, target > before { driver.observe(self, .published(before..<target)) }
        if let unreserved {
            // Only a driven stream returns from `misuse`, having told its driver.
            try? misuse("RowStream.publish of rows up to \(unreserved), reserved only up to \(locked { reserved })")
        }
    }

    /// The producer returned without error after publishing every row: the last rows become final.
    /// Called by the runner, never by the producer itself.
    public func finish() {
        locked {
            ended = true
            wake()
        }
    }

    /// The producer failed, or the consumer gave up: every wait on either side throws.
    public func fail(_ error: any Error) {
        locked {
            if failure == nil { failure = error }
            wake()
        }
    }

    /// Whether every row was published (checked by the runner when the producer returns).
    public var isComplete: Bool { locked { shapeValue.map { published == $0.height } ?? false } }

    /// Whether `fail` was called.
    public var hasFailed: Bool { locked { failure != nil } }

    // MARK: Both sides

    /// Row `y`'s `width * 4` bytes of premultiplied RGBA in the ring. Valid for the producer between
    /// `reserve` and `publish`, for the consumer between `waitForRows` and `release`.
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        // The storage and stride are fixed from `begin` until `image()` hands a whole frame over;
        // reading them needs no lock.
        guard let storage else { preconditionFailure("RowStream.row before begin or after image() took the rows") }
        return storage + (y % slots) * stride
    }

    /// The ring for C code: row `y` is at `base + (y % rows) * stride`. Only after `begin`.
    public var ring: (base: UnsafeMutablePointer<UInt8>, stride: Int, rows: Int) {
        locked {
            guard let storage else { preconditionFailure("RowStream.ring before begin or after image() took the rows") }
            return (storage, stride, slots)
        }
    }

    // MARK: Consumer

    /// Waits until the producer has begun; the image's size and side data.
    public func waitForStart() throws -> ImageShape {
        try waiting(for: .start) {
            if failure != nil { throw ProducerFailed() }
            return shapeValue
        }
    }

    /// The size and side data if the producer has begun (without waiting).
    public var shape: ImageShape? { locked { shapeValue } }

    /// Waits until rows below `row` (capped at the height) may be read; returns how many rows are
    /// published. Waiting for the last row also waits until the producer ended without error.
    /// Throws when the other side failed, or when `row` is more than `capacity` rows past the last
    /// release (the ring could never hold them).
    public func waitForRows(through row: Int) throws -> Int {
        let height = try waitForStart().height
        let target = min(row, height)
        // Released rows only grow: a band that fits now fits while waiting.
        let (asked, holds, failed) = locked { (target - released, capacity, failure != nil) }
        if failed { throw ProducerFailed() }
        if asked > holds {
            let message = "a stage asked for \(asked) rows of a stream that holds \(holds)"
            driver?.observe(self, .problem(message))
            throw StageError(message)
        }
        return try waiting(for: .rows(through: target)) {
            if failure != nil { throw ProducerFailed() }
            return published >= target && (target < height || ended) ? published : nil
        }
    }

    /// The consumer no longer needs rows below `row`: the producer may reuse their slots.
    public func release(through row: Int) {
        let (before, after, waking) = locked {
            let before = released
            released = max(released, min(row, published))
            return (before, released, released >= releasedWanted)
        }
        if waking { wake() }
        if let driver, after > before { driver.observe(self, .released(before..<after)) }
    }

    /// How many rows are published (for tests and drivers; under threads, at once out of date).
    public var publishedRows: Int { locked { published } }

    /// How many rows the consumer released (for tests and drivers; under threads, at once out of date).
    public var releasedRows: Int { locked { released } }

    /// The consumer needs no more rows (it stopped early, or returned): the producer's later bands
    /// are dropped as soon as they are published, so it never waits for room.
    public func discardRemaining() {
        let (before, after) = locked {
            let before = released
            discarding = true
            released = published
            wake()
            return (before, released)
        }
        if let driver, after > before { driver.observe(self, .released(before..<after)) }
    }

    /// Waits until the producer has ended; throws when it failed. A consumer calls this before any
    /// lasting effect, so a failed producer always fails it first.
    public func waitForEnd() throws {
        try waiting(for: .end) { () throws -> Void? in
            if failure != nil { throw ProducerFailed() }
            return ended ? () : nil
        }
    }

    /// Reads every remaining row into one image, releasing the ring as it goes (for a consumer that
    /// needs the whole image); waits for the producer's end. A stream as tall as its image hands
    /// its ring over as the image's pixels (no copy; the stream holds no rows afterwards).
    public func image() throws -> Image {
        let shape = try waitForStart()
        let first = locked { released }
        precondition(first == 0, "RowStream.image after rows were released")
        if locked({ isFrame }) {
            _ = try waitForRows(through: shape.height)
            try waitForEnd()
            // The rows leave the stream with their storage: released, but not for reuse (a driver
            // is not told, as no slot comes free).
            let pixels: PixelBuffer? = locked {
                defer {
                    isFrame = false
                    storage = nil
                    released = published
                    wake()
                }
                return rows.take()
            }
            if let pixels { return Image(width: shape.width, height: shape.height, pixels: pixels, metadata: shape.metadata) }
        }
        let band = capacity
        let image = try Image(width: shape.width, height: shape.height, metadata: shape.metadata) { out in
            guard let base = out.baseAddress else { return }
            var y = 0
            while y < shape.height {
                let end = min(shape.height, y + band)
                _ = try waitForRows(through: end)
                for row in y..<end { (base + row * shape.width * 4).update(from: self.row(row), count: shape.width * 4) }
                release(through: end)
                y = end
            }
        }
        try waitForEnd()
        return image
    }
}
