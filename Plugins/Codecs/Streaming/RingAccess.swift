import CSumiCodecs
import SumiKit

/// A `RowStream` seen by the C shim as a `sumi_ring`: the producer side (`wait` reserves room,
/// `done` publishes) or the consumer side (`wait` waits for rows, `done` releases).
/// Use the ring only inside `withRing`, which keeps the stream alive.
enum RingAccess {
    enum Side { case producer, consumer }

    static func withRing<T>(_ stream: RowStream, as side: Side, _ body: (UnsafePointer<sumi_ring>) throws -> T) rethrows -> T {
        let (base, stride, rows) = stream.ring
        let band = Int32(min(rows, stream.capacity))
        let context = Unmanaged.passUnretained(stream).toOpaque()
        var ring: sumi_ring
        switch side {
        case .producer:
            ring = sumi_ring(base: base, stride: stride, rows: Int32(rows), band: band, wait: { context, through in
                let stream = Unmanaged<RowStream>.fromOpaque(context!).takeUnretainedValue()
                return (try? stream.reserve(through: Int(through))) == nil ? -1 : 0
            }, done: { context, through in
                Unmanaged<RowStream>.fromOpaque(context!).takeUnretainedValue().publish(through: Int(through))
            }, context: context)
        case .consumer:
            ring = sumi_ring(base: base, stride: stride, rows: Int32(rows), band: band, wait: { context, through in
                let stream = Unmanaged<RowStream>.fromOpaque(context!).takeUnretainedValue()
                return (try? stream.waitForRows(through: Int(through))) == nil ? -1 : 0
            }, done: { context, through in
                Unmanaged<RowStream>.fromOpaque(context!).takeUnretainedValue().release(through: Int(through))
            }, context: context)
        }
        return try withExtendedLifetime(stream) { try body(&ring) }
    }
}
