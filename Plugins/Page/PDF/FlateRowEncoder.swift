#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization
import SumiKit

/// Compresses rows that arrive one after another into exactly the zlib stream `FlateImageEncoder`
/// makes of the whole image: the same parts (each a raw deflate stream primed with the 32 KiB of
/// predicted data before it and ended with a sync flush), the same batches within a part, the same
/// PNG predictor. The parts are compressed in turn, as their rows come, and the output is held (it is
/// small next to the rows for the screenshots this is for; the writer decides which of several
/// candidate streams it keeps).
///
/// The caller's thread filters the rows; each full batch is compressed on a queue of the encoder's
/// own, in order, at most `batchesInFlight` batches behind: filtering and compressing (and the
/// candidate streams of one page) run on both cores. (`@unchecked Sendable`: the filtering state is
/// touched only by the caller, the compressing state only on `queue`.)
final class FlateRowEncoder: @unchecked Sendable {
    /// Bytes per row, without the filter byte.
    let rowLength: Int
    let level: Int32
    static let batchesInFlight = 4

    // Filtering, on the caller's thread.
    private let bounds: [Int]
    private let rowsPerBatch: Int
    private var part = 0
    private var row = 0
    private var predictor: PNGPredictor
    private var previous: [UInt8]
    private var batch: [UInt8] = []

    // Compressing, on `queue`.
    private let queue = DispatchQueue(label: "sumi.page.flate-rows")
    private let room = DispatchSemaphore(value: FlateRowEncoder.batchesInFlight)
    private let failure = Mutex<(any Error)?>(nil)
    private var deflater: DeflateStream?
    /// The last 32 KiB of predicted data: the next part's dictionary.
    private var history: [UInt8] = []
    private var adler: UInt32 = 1
    private let output = ByteCollector()

    /// An encoder for `height` rows of `rowLength` bytes (`bytesPerPixel` for the predictor;
    /// `unordered` for palette indices).
    init(height: Int, rowLength: Int, bytesPerPixel: Int, unordered: Bool, level: Int32) throws {
        self.rowLength = rowLength
        self.level = level
        bounds = FlateImageEncoder.partBounds(height: height)
        rowsPerBatch = max(1, (1 << 16) / (rowLength + 1))
        predictor = PNGPredictor(bytesPerPixel: bytesPerPixel, rowLength: rowLength, unordered: unordered)
        previous = [UInt8](repeating: 0, count: rowLength)
        batch.reserveCapacity(rowsPerBatch * (rowLength + 1))
        try output.write([0x78, 0x9C])
    }

    /// Filters the next row (`rowLength` bytes of samples); a full batch goes to be compressed.
    func add(_ samples: UnsafeBufferPointer<UInt8>) throws {
        let n = rowLength, start = batch.count
        batch.append(contentsOf: repeatElement(0, count: n + 1))
        previous.withUnsafeBufferPointer { prev in
            batch.withUnsafeMutableBufferPointer { out in
                predictor.filter(samples, previous: prev, into: UnsafeMutableBufferPointer(rebasing: out[start..<(start + n + 1)]))
            }
        }
        previous.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: samples) }
        row += 1
        let partEnd = bounds[part + 1]
        guard batch.count == rowsPerBatch * (n + 1) || row == partEnd else { return }
        let last = part == bounds.count - 2
        let flush: DeflateStream.Flush = row < partEnd ? .none : (last ? .finish : .sync)
        let full = batch
        batch = []
        batch.reserveCapacity(rowsPerBatch * (n + 1))
        if row == partEnd { part += 1 }
        if let error = failure.withLock({ $0 }) { throw error }
        room.wait()
        queue.async { [self] in
            defer { room.signal() }
            guard failure.withLock({ $0 == nil }) else { return }
            do {
                try compress(full, flush: flush)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
    }

    /// Compresses one batch (on `queue`); a part's first batch starts a new deflate stream.
    private func compress(_ batch: [UInt8], flush: DeflateStream.Flush) throws {
        let stream: DeflateStream
        if let deflater {
            stream = deflater
        } else {
            stream = try DeflateStream(level: level)
            if !history.isEmpty { try stream.setDictionary(history) }
            deflater = stream
        }
        adler = DeflateStream.adler32(adler, batch)
        try stream.compress(batch, flush: flush, into: output)
        history.append(contentsOf: batch)
        if history.count > 32 * 1024 { history.removeFirst(history.count - 32 * 1024) }
        if flush != .none { deflater = nil }
    }

    /// The whole zlib stream, once every row was added.
    func finish() throws -> [UInt8] {
        queue.sync {}
        if let error = failure.withLock({ $0 }) { throw error }
        guard part == bounds.count - 1 else { throw StageError("image compression ended after \(row) rows") }
        try output.write([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
        return output.bytes
    }
}
