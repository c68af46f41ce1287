#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SumiKit

/// Compresses rows that arrive one after another into exactly the zlib stream `FlateImageEncoder`
/// makes of the whole image: the same parts (each a raw deflate stream primed with the 32 KiB of
/// predicted data before it and ended with a sync flush), the same batches within a part, the same
/// PNG predictor. The parts are compressed in turn, as their rows come, and the output is held (it is
/// small next to the rows for the screenshots this is for; the writer decides which of several
/// candidate streams it keeps).
final class FlateRowEncoder {
    /// Bytes per row, without the filter byte.
    let rowLength: Int
    let level: Int32
    private let bounds: [Int]
    private let rowsPerBatch: Int
    private var part = 0
    private var row = 0
    private var deflater: DeflateStream?
    private var predictor: PNGPredictor
    private var previous: [UInt8]
    private var batch: [UInt8] = []
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

    /// Compresses the next row (`rowLength` bytes of samples).
    func add(_ samples: UnsafeBufferPointer<UInt8>) throws {
        if deflater == nil {
            let stream = try DeflateStream(level: level)
            if row > 0 { try stream.setDictionary(history) }
            deflater = stream
        }
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
        guard batch.count == rowsPerBatch * (n + 1) || row == partEnd, let deflater else { return }
        let last = part == bounds.count - 2
        let flush: DeflateStream.Flush = row < partEnd ? .none : (last ? .finish : .sync)
        adler = DeflateStream.adler32(adler, batch)
        try deflater.compress(batch, flush: flush, into: output)
        history.append(contentsOf: batch)
        if history.count > 32 * 1024 { history.removeFirst(history.count - 32 * 1024) }
        batch.removeAll(keepingCapacity: true)
        if row == partEnd {
            part += 1
            self.deflater = nil
        }
    }

    /// The whole zlib stream, once every row was added.
    func finish() throws -> [UInt8] {
        guard part == bounds.count - 1 else { throw StageError("image compression ended after \(row) rows") }
        try output.write([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
        return output.bytes
    }
}
