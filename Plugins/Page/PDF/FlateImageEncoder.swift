#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSumiCodecs
import Dispatch
import Synchronization
import SumiCodecs
import SumiKit

/// Compresses an image's colour (RGB, un-premultiplied), its palette indices (for `/Indexed`) or
/// its alpha channel as a zlib stream of PNG-predicted rows (`/FlateDecode` with `/Predictor 15`).
///
/// The image is compressed in horizontal parts (`FlateParts`) at once on the available cores and
/// joined into one stream (each part primed with the 32 KiB before it, so the result is as small as
/// a single pass).
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

    /// Writes the compressed stream to `sink` (parts filtered and compressed on every core, see
    /// `FlateParts`); returns its length in bytes.
    func encode(to sink: any ByteOutput) throws -> Int {
        let n = rowLength
        let bounds = FlateParts.bounds(height: image.height, rowLength: n)
        let compressor = PartCompressor(rowLength: n, level: level)
        let encoder = self
        for p in 0..<(bounds.count - 1) where !compressor.hasFailed {
            let rows = bounds[p]..<bounds[p + 1]
            compressor.submit(last: p == bounds.count - 2) {
                var filter = RowFilter(encoder: encoder)
                // The 32 KiB of predicted data before this part, as the previous part's rows were predicted.
                let lead = min(rows.lowerBound, (FlateParts.dictionaryBytes + n) / (n + 1) + 1)
                let data = filter.filter(rows: (rows.lowerBound - lead)..<rows.upperBound)
                let split = lead * (n + 1)
                return (data[..<split].suffix(FlateParts.dictionaryBytes), Array(data[split...]))
            }
        }
        let start = sink.offset
        try compressor.finish(into: sink)
        return sink.offset - start
    }

    private var rowLength: Int {
        if case .indexed(let indexed) = channels { return indexed.packedRowLength }
        return image.width * channels.count
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
        precondition(px.count >= width * 4 && o.count >= width * 3)
        guard width > 0, let source = px.baseAddress, let target = o.baseAddress else { return }
        sumi_straight_rgb(source, target, width)
    }
}
