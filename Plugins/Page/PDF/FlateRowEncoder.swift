import SumiKit

/// Compresses rows that arrive one after another into exactly the zlib stream `FlateImageEncoder`
/// makes of the whole image: the same parts (`FlateParts`), the same PNG predictor. The caller's
/// thread filters the rows; each full part is compressed by a `PartCompressor` while the next part's
/// rows arrive, so parts are compressed on every core, at most `FlateParts.concurrency` at once. The
/// compressed output is held (it is small next to the rows for the screenshots this is for; the
/// writer decides which of several candidate streams it keeps).
final class FlateRowEncoder {
    /// Bytes per row, without the filter byte.
    let rowLength: Int
    private let bounds: [Int]
    private var part = 0
    private var row = 0
    private var predictor: PNGPredictor
    private var previous: [UInt8]
    /// The current part's predicted rows.
    private var rows: [UInt8] = []
    /// The last 32 KiB of predicted data before the current part: its dictionary.
    private var history: ArraySlice<UInt8> = []
    private let compressor: PartCompressor

    /// An encoder for `height` rows of `rowLength` bytes (`bytesPerPixel` for the predictor;
    /// `unordered` for palette indices).
    init(height: Int, rowLength: Int, bytesPerPixel: Int, unordered: Bool, level: Int32) throws {
        self.rowLength = rowLength
        bounds = FlateParts.bounds(height: height, rowLength: rowLength)
        predictor = PNGPredictor(bytesPerPixel: bytesPerPixel, rowLength: rowLength, unordered: unordered)
        previous = [UInt8](repeating: 0, count: rowLength)
        compressor = PartCompressor(rowLength: rowLength, level: level)
        rows.reserveCapacity((bounds.count > 1 ? bounds[1] : 0) * (rowLength + 1))
        if height == 0 { endPart() }
    }

    /// Filters the next row (`rowLength` bytes of samples); a full part goes to be compressed.
    func add(_ samples: UnsafeBufferPointer<UInt8>) throws {
        guard part < bounds.count - 1 else { throw StageError("image compression got more rows than the image has") }
        let n = rowLength, start = rows.count
        rows.append(contentsOf: repeatElement(0, count: n + 1))
        previous.withUnsafeBufferPointer { prev in
            rows.withUnsafeMutableBufferPointer { out in
                predictor.filter(samples, previous: prev, into: UnsafeMutableBufferPointer(rebasing: out[start..<(start + n + 1)]))
            }
        }
        previous.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: samples) }
        row += 1
        guard row == bounds[part + 1] else { return }
        try compressor.check()
        endPart()
    }

    /// Hands the current part to the compressor and starts the next.
    private func endPart() {
        let data = rows, dictionary = history
        history = data.count >= FlateParts.dictionaryBytes
            ? data.suffix(FlateParts.dictionaryBytes)
            : (Array(history) + data).suffix(FlateParts.dictionaryBytes)
        compressor.submit(last: part == bounds.count - 2) { (dictionary, data) }
        part += 1
        rows = []
        if part < bounds.count - 1 { rows.reserveCapacity((bounds[part + 1] - bounds[part]) * (rowLength + 1)) }
    }

    /// The whole zlib stream, once every row was added.
    func finish() throws -> [UInt8] {
        guard part == bounds.count - 1 else {
            try compressor.check()
            throw StageError("image compression ended after \(row) rows")
        }
        let output = ByteCollector()
        try compressor.finish(into: output)
        return output.bytes
    }
}
