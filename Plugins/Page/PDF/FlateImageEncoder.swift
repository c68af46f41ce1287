#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import Synchronization
import SumiCodecs
import SumiKit

/// Compresses an image's colour (RGB, un-premultiplied), its palette indices (for `/Indexed`) or
/// its alpha channel as a zlib stream of PNG-predicted rows (`/FlateDecode` with `/Predictor 15`).
///
/// Large images are compressed in horizontal parts at once on the available cores and joined into
/// one stream (each part primed with the 32 KiB before it, so the result is as small as a single
/// pass). The first part streams straight to the sink; later parts are held compressed until their
/// turn.
struct FlateImageEncoder: Sendable {
    /// Which samples of the image are written.
    enum Channels: Sendable {
        case rgb
        case alpha
        /// Palette indices packed at the palette's bit depth (whole bytes for the predictor).
        case indexed(IndexedImage)

        /// Bytes per pixel for the predictor (1 for packed indices, as PNG rounds them up).
        var count: Int {
            switch self {
            case .rgb: 3
            case .alpha, .indexed: 1
            }
        }
    }

    let image: Image
    let channels: Channels
    var level: Int32 = 6

    /// Rows below which an image is not split.
    static let rowsPerPartMinimum = 128

    /// Where the parts of an image `height` rows tall begin, and the end: one part per core (at
    /// most 4), none under `rowsPerPartMinimum` rows.
    static func partBounds(height: Int) -> [Int] {
        let cores = max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        let partCount = max(1, min(cores, height / rowsPerPartMinimum))
        return (0...partCount).map { height * $0 / partCount }
    }

    /// Writes the compressed stream to `sink`; returns its length in bytes.
    func encode(to sink: any ByteOutput) throws -> Int {
        let bounds = FlateImageEncoder.partBounds(height: image.height)
        let partCount = bounds.count - 1
        let later = (1..<partCount).map { _ in PartResult() }
        let group = DispatchGroup()
        // A queue of our own: its threads are made on demand (overcommit), so waiting for the parts
        // cannot starve when the caller itself runs on a pool thread.
        let workers = DispatchQueue(label: "sumi.page.flate", attributes: .concurrent)
        for p in 1..<partCount {
            let encoder = self, result = later[p - 1]
            let rows = bounds[p]..<bounds[p + 1], last = p == partCount - 1
            workers.async(group: group) {
                let bytes = ByteCollector()
                let outcome = Result { try encoder.encodePart(rows: rows, last: last, into: bytes) }
                result.store(outcome.map { (bytes.bytes, $0) })
            }
        }
        let start = sink.offset
        try sink.write([0x78, 0x9C])
        var adler = try encodePart(rows: bounds[0]..<bounds[1], last: partCount == 1, into: sink)
        group.wait()
        for (i, result) in later.enumerated() {
            let (bytes, partAdler) = try result.take()
            let rows = bounds[i + 2] - bounds[i + 1]
            adler = DeflateStream.combine(adler, partAdler, secondLength: rows * (rowLength + 1))
            try sink.write(bytes)
        }
        try sink.write([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
        return sink.offset - start
    }

    private var rowLength: Int {
        if case .indexed(let indexed) = channels { return indexed.packedRowLength }
        return image.width * channels.count
    }

    /// Compresses the predicted rows `rows` as raw deflate; returns their Adler-32.
    private func encodePart(rows: Range<Int>, last: Bool, into sink: any ByteOutput) throws -> UInt32 {
        let deflater = try DeflateStream(level: level)
        var rowsFilter = RowFilter(encoder: self)
        if rows.lowerBound > 0 {
            // The 32 KiB of predicted data before this part, as the previous part's compressor saw it.
            let lead = min(rows.lowerBound, (32 * 1024 + rowLength) / (rowLength + 1) + 1)
            let before = rowsFilter.filter(rows: (rows.lowerBound - lead)..<rows.lowerBound)
            try deflater.setDictionary(Array(before.suffix(32 * 1024)))
        }
        var adler: UInt32 = 1
        let rowsPerBatch = max(1, (1 << 16) / (rowLength + 1))
        var start = rows.lowerBound
        repeat {
            let end = min(rows.upperBound, start + rowsPerBatch)
            let flush: DeflateStream.Flush = end < rows.upperBound ? .none : (last ? .finish : .sync)
            let batch = rowsFilter.filter(rows: start..<end)
            adler = DeflateStream.adler32(adler, batch)
            try deflater.compress(batch, flush: flush, into: sink)
            start = end
        } while start < rows.upperBound
        return adler
    }

    /// Turns image rows into predicted rows, batch by batch.
    private struct RowFilter {
        let encoder: FlateImageEncoder
        var predictor: PNGPredictor
        var previous: [UInt8]
        var current: [UInt8]

        init(encoder: FlateImageEncoder) {
            self.encoder = encoder
            let n = encoder.rowLength
            var indexed = false
            if case .indexed = encoder.channels { indexed = true }
            predictor = PNGPredictor(bytesPerPixel: encoder.channels.count, rowLength: n, unordered: indexed)
            previous = [UInt8](repeating: 0, count: n)
            current = [UInt8](repeating: 0, count: n)
        }

        /// The predicted rows `rows`, one after the other.
        mutating func filter(rows: Range<Int>) -> [UInt8] {
            let n = encoder.rowLength
            let size = rows.count * (n + 1)
            var batch = [UInt8](repeating: 0, count: size)
            if let first = rows.first {
                if first > 0 { encoder.samples(row: first - 1, into: &previous) }
                else { for i in 0..<n { previous[i] = 0 } }
            }
            for (k, y) in rows.enumerated() {
                encoder.samples(row: y, into: &current)
                current.withUnsafeBufferPointer { cur in
                    previous.withUnsafeBufferPointer { prev in
                        batch.withUnsafeMutableBufferPointer { out in
                            predictor.filter(cur, previous: prev,
                                             into: UnsafeMutableBufferPointer(rebasing: out[(k * (n + 1))..<((k + 1) * (n + 1))]))
                        }
                    }
                }
                swap(&previous, &current)
            }
            return batch
        }
    }

    /// One row's samples: straight RGB (premultiplication undone), packed palette indices or alpha.
    fileprivate func samples(row y: Int, into out: inout [UInt8]) {
        let width = image.width
        if case .indexed(let indexed) = channels {
            out.withUnsafeMutableBufferPointer { indexed.packRow(y, into: $0) }
            return
        }
        image.pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { o in
                var p = y * width * 4
                switch channels {
                case .indexed:
                    break
                case .alpha:
                    for x in 0..<width {
                        o[x] = px[p + 3]
                        p += 4
                    }
                case .rgb:
                    FlateImageEncoder.rgbSamples(UnsafeBufferPointer(rebasing: px[p..<(p + width * 4)]), width: width, into: o)
                }
            }
        }
    }

    /// One row's straight RGB (premultiplication undone) from its premultiplied RGBA.
    static func rgbSamples(_ px: UnsafeBufferPointer<UInt8>, width: Int, into o: UnsafeMutableBufferPointer<UInt8>) {
        var p = 0, q = 0
        for _ in 0..<width {
            let a = px[p + 3]
            if a == 255 {
                o[q] = px[p]; o[q + 1] = px[p + 1]; o[q + 2] = px[p + 2]
            } else if a == 0 {
                o[q] = 0; o[q + 1] = 0; o[q + 2] = 0
            } else {
                let a32 = UInt32(a), half = UInt32(a) / 2
                o[q] = UInt8(min(255, (UInt32(px[p]) * 255 + half) / a32))
                o[q + 1] = UInt8(min(255, (UInt32(px[p + 1]) * 255 + half) / a32))
                o[q + 2] = UInt8(min(255, (UInt32(px[p + 2]) * 255 + half) / a32))
            }
            p += 4
            q += 3
        }
    }
}

/// The compressed bytes and checksum of one part, handed from a worker to the writer.
private final class PartResult: Sendable {
    private let slot = Mutex<Result<([UInt8], UInt32), any Error>?>(nil)

    func store(_ result: Result<([UInt8], UInt32), any Error>) { slot.withLock { $0 = result } }

    func take() throws -> ([UInt8], UInt32) {
        guard let result = slot.withLock({ $0.take() }) else { throw StageError("image compression did not finish") }
        return try result.get()
    }
}
