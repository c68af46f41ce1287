#if canImport(Glibc)
import Glibc
#endif

/// An image handed from one stage to the next row by row while it is still being produced, so a
/// decoder and an encoder work at the same time on the two cores (a JPEG re-encode then takes about
/// as long as the slower of the two, not their sum).
///
/// The producer calls `begin` (which gives it the pixel buffer), then `publish(rows:)` as rows are
/// finished top to bottom — or `deliver` with a whole image when it cannot stream. The consumer waits
/// with `waitForRows`. Either side's failure reaches the other: `fail` wakes a waiting consumer.
///
/// The last row counts as final only once the producer has *ended* without error (`finish`, called
/// by the runner after the producer returned): a decoder can publish its last row and still fail on
/// the trailer (a JPEG without its EOI marker). So a consumer that has every row — and so may write
/// its output — knows that the producer succeeded; `waitForEnd` says so explicitly.
public final class RowStream: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var started = false
    private var ended = false
    private var rowsReady = 0
    private var failure: (any Error)?
    private var whole: Image?
    private var storage: UnsafeMutableBufferPointer<UInt8>?
    private var info: (width: Int, height: Int, metadata: ImageMetadata) = (0, 0, ImageMetadata())

    /// The error a consumer sees when the producer failed (the runner reports the producer's own).
    public struct ProducerFailed: Error, Sendable {}

    public init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        storage?.deallocate()
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }

    // MARK: Producer

    /// Starts a streamed image; returns the buffer (`width * height * 4` bytes) to fill top to bottom.
    public func begin(width: Int, height: Int, metadata: ImageMetadata) -> UnsafeMutableBufferPointer<UInt8> {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, width * height * 4))
        locked {
            storage = buffer
            info = (width, height, metadata)
            started = true
            pthread_cond_broadcast(&condition)
        }
        return buffer
    }

    /// Rows `0..<rows` are final.
    public func publish(rows: Int) {
        locked {
            rowsReady = max(rowsReady, min(rows, info.height))
            pthread_cond_broadcast(&condition)
        }
    }

    /// Hands over a whole image at once (for producers that cannot stream).
    public func deliver(_ image: Image) {
        locked {
            whole = image
            info = (image.width, image.height, image.metadata)
            rowsReady = image.height
            started = true
            pthread_cond_broadcast(&condition)
        }
    }

    /// The producer returned without error after publishing every row (or delivering its image):
    /// the last rows become final. Called by the runner, never by the producer itself.
    public func finish() {
        locked {
            ended = true
            pthread_cond_broadcast(&condition)
        }
    }

    /// The producer failed (or the consumer gave up): every wait returns with an error.
    public func fail(_ error: any Error) {
        locked {
            if failure == nil { failure = error }
            pthread_cond_broadcast(&condition)
        }
    }

    /// Whether the producer finished: every row published or a whole image delivered.
    public var isComplete: Bool { locked { started && rowsReady == info.height } }

    // MARK: Consumer

    /// Waits until the producer has started; the image's size and metadata.
    public func waitForStart() throws -> (width: Int, height: Int, metadata: ImageMetadata) {
        try locked {
            while !started && failure == nil { pthread_cond_wait(&condition, &mutex) }
            if failure != nil { throw ProducerFailed() }
            return info
        }
    }

    /// Waits until at least `rows` rows (capped at the height) are final; returns how many are.
    /// Asking for every row also waits until the producer has ended without error.
    public func waitForRows(_ rows: Int) throws -> Int {
        try locked {
            while failure == nil && !(started && rowsReady >= min(rows, info.height)
                                      && (rows < info.height || ended)) {
                pthread_cond_wait(&condition, &mutex)
            }
            if failure != nil { throw ProducerFailed() }
            return rowsReady
        }
    }

    /// Waits until the producer has ended; throws when it failed. A consumer calls this before any
    /// lasting effect (renaming its output into place), so a failed producer always fails it first.
    public func waitForEnd() throws {
        try locked {
            while failure == nil && !ended { pthread_cond_wait(&condition, &mutex) }
            if failure != nil { throw ProducerFailed() }
        }
    }

    /// The streamed pixels (premultiplied RGBA, `width * 4` bytes a row) while the stream lives, or
    /// nil when the producer delivered a whole image instead. Read only rows `waitForRows` reported.
    public var streamedPixels: UnsafeBufferPointer<UInt8>? {
        locked { storage.map { UnsafeBufferPointer($0) } }
    }

    /// The whole image, once every row is final (a copy when it was streamed).
    public func image() throws -> Image {
        _ = try waitForStart()
        try waitForEnd()
        return locked {
            if let whole { return whole }
            let source = storage.map { UnsafeBufferPointer($0) }
            return Image(width: info.width, height: info.height, metadata: info.metadata) { out in
                if let source, let base = source.baseAddress, let dst = out.baseAddress {
                    dst.update(from: base, count: out.count)
                }
            }
        }
    }
}

/// A stage that can stream its image output row by row to a `RowStreamConsumer` that is its only
/// consumer. It must end the stream: `begin` + `publish` up to the height, `deliver`, or throw.
public protocol RowStreamProducer: StageInstance {
    /// Whether this stage, as configured, produces one image that can be streamed (default: true;
    /// a stage that produces a list says false and is run whole).
    var streamsRows: Bool { get }
    func process(_ inputs: StageInputs, context: StageContext, streamingInto stream: RowStream) throws
}

extension RowStreamProducer {
    public var streamsRows: Bool { true }
}

/// A stage that can consume an image row by row while it is being produced. It must not make any
/// lasting effect (an output file renamed into place) before `RowStream.waitForEnd` returned.
public protocol RowStreamConsumer: StageInstance {
    func process(streaming stream: RowStream, context: StageContext) throws -> Value
}
