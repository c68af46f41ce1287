import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// A Gaussian run over a streamed image, separably: each source row is filtered along the row as it
/// arrives, into a ring of float rows as tall as the kernel plus one output band; each output row is
/// then filtered down its column from that ring and handed to the stage's `BlurredRowWriter`. Memory
/// is that ring (and, for a writer that reads the source, a ring of source rows as tall), whatever
/// the image's height: `(2·radius + band) × width × 16` bytes.
///
/// Edges are extended: a tap outside the image reads the nearest edge pixel (libvips' `gaussblur`
/// embeds with `VIPS_EXTEND_COPY`; Pillow's box passes repeat the edge pixel likewise).
///
/// Threads: both passes of a band split its rows over up to `workers` threads
/// (`DispatchQueue.concurrentPerform`, at most 4, never more than the online CPUs); each thread has
/// its own padded scratch row, and the rings are written at different rows. A band is at most 32 rows.
struct GaussianRows: Sendable {
    let kernel: GaussianKernel
    let workers: Int

    init(kernel: GaussianKernel, workers: Int = GaussianRows.availableWorkers) {
        self.kernel = kernel
        self.workers = max(1, workers)
    }

    /// The online CPUs, at most 4.
    static var availableWorkers: Int { max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The most rows the rings hold with output bands of `band` rows.
    func ringRows(band: Int) -> Int { kernel.taps + band - 1 }

    /// The most bytes the rings may take: 16 per pixel of a float row, 4 more when the writer reads
    /// the source. A 6000-pixel-wide image at the largest sigma needs 32 MB; rows a quarter of a
    /// million pixels wide at sigma 50 would need 1.4 GB, and are refused before any row is read.
    static let maxRingBytes = 512 << 20

    /// Runs the filter from `input` into `output`, which this begins with the input's size and
    /// `metadata`. Rows are released and published band by band, before this side waits.
    func run<Writer: BlurredRowWriter>(_ input: RowStream, into output: RowStream, metadata: ImageMetadata,
                                       writer: Writer) throws -> Int {
        let shape = try input.waitForStart()
        let (width, height) = (shape.width, shape.height)
        // The rings' bound, for the largest band, checked before anything is allocated.
        let bytes = min(height, ringRows(band: 32)) * width * (writer.needsSource ? 20 : 16)
        guard bytes <= Self.maxRingBytes else {
            throw StageError.limit("a Gaussian of sigma \(kernel.sigma) over rows \(width) pixels wide keeps \(bytes >> 20) MB of rows, "
                                   + "over \(Self.maxRingBytes >> 20) MB: a smaller sigma, or scale the image first", parameter: "sigma")
        }
        try output.begin(ImageShape(width: width, height: height, metadata: metadata))
        guard width > 0, height > 0 else { return 0 }
        let band = max(1, min(32, output.capacity))
        let slots = min(height, ringRows(band: band))
        let ring = GaussianRing(kernel: kernel, width: width, slots: slots, maxBand: band,
                                keepsSource: writer.needsSource, workers: workers)
        var filtered = 0
        var y0 = 0
        while y0 < height {
            let y1 = min(height, y0 + band)
            let needed = min(height, y1 + kernel.radius)
            while filtered < needed {
                let last = min(needed, filtered + input.capacity)
                _ = try input.waitForRows(through: last)
                ring.filterRows(filtered..<last, from: input)
                input.release(through: last)
                filtered = last
            }
            try output.reserve(through: y1)
            ring.writeRows(y0..<y1, height: height, into: output, writer: writer)
            output.publish(through: y1)
            y0 = y1
        }
        return ring.slots
    }
}

/// The rows `GaussianRows` keeps: float rows filtered along the row (row `y` at slot `y % slots`),
/// the source rows when the writer reads them, and one padded scratch row per thread. It owns
/// them and frees them in `deinit`.
final class GaussianRing: @unchecked Sendable {
    let width: Int
    let slots: Int
    let radius: Int
    /// Floats per filtered row: `width * 4` rounded up to whole vectors of 8.
    let stride: Int
    let workers: Int
    private let weights: UnsafeMutablePointer<Float>
    private let filtered: UnsafeMutablePointer<Float>
    private let sources: UnsafeMutablePointer<UInt8>?
    /// Per thread: a segment of a row with `radius` pixels on each side (and floats to spare).
    private let padded: UnsafeMutablePointer<Float>
    private let paddedCount: Int
    /// Per thread: the addresses of the rows each output row's taps read, for a band of at most
    /// `maxBand` rows.
    private let tapRows: UnsafeMutablePointer<UnsafeRawPointer>
    private let maxBand: Int

    init(kernel: GaussianKernel, width: Int, slots: Int, maxBand: Int, keepsSource: Bool, workers: Int) {
        self.width = width
        self.slots = slots
        self.workers = workers
        radius = kernel.radius
        stride = (width * 4 + 7) & ~7
        weights = .allocate(capacity: kernel.taps)
        weights.initialize(from: kernel.weights, count: kernel.taps)
        filtered = .allocate(capacity: slots * stride)
        sources = keepsSource ? .allocate(capacity: slots * width * 4) : nil
        paddedCount = (Self.segmentPixels + 2 * kernel.radius) * 4 + 12
        padded = .allocate(capacity: workers * paddedCount)
        padded.initialize(repeating: 0, count: workers * paddedCount)
        self.maxBand = maxBand
        tapRows = .allocate(capacity: workers * kernel.taps * maxBand)
    }

    deinit {
        weights.deallocate()
        filtered.deallocate()
        sources?.deallocate()
        padded.deallocate()
        tapRows.deallocate()
    }

    private func filteredRow(_ y: Int) -> UnsafeMutablePointer<Float> { filtered + (y % slots) * stride }
    private func sourceRow(_ y: Int) -> UnsafeMutablePointer<UInt8>? { sources.map { $0 + (y % slots) * width * 4 } }

    /// Splits `rows` into up to `workers` runs of consecutive rows and runs `body` on each, at the
    /// same time when there is more than one (and the band is large enough to be worth a thread).
    private func split(_ rows: Range<Int>, _ body: (Range<Int>, Int) -> Void) {
        let count = min(workers, rows.count, max(1, rows.count * width / 16_384))
        guard count > 1 else { return body(rows, 0) }
        let share = (rows.count + count - 1) / count
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let run = body
            DispatchQueue.concurrentPerform(iterations: count) { part in
                let first = rows.lowerBound + part * share
                let last = min(rows.upperBound, first + share)
                if first < last { run(first..<last, part) }
            }
        }
    }

    /// Filters source rows `rows` (published in `input`) along the row into the ring.
    func filterRows(_ rows: Range<Int>, from input: RowStream) {
        split(rows) { rows, part in
            let scratch = padded + part * paddedCount
            for y in rows {
                let source = UnsafePointer(input.row(y))
                if let copy = sourceRow(y) { copy.update(from: source, count: width * 4) }
                filterRow(source, padded: scratch, into: filteredRow(y))
            }
        }
    }

    /// Pixels per segment of the horizontal pass.
    static let segmentPixels = 256

    /// The horizontal pass of one row, in segments of `segmentPixels` (so the scratch stays in the
    /// core's first cache however wide the row): the segment's pixels and `radius` either side
    /// (the edge pixel standing in beyond the row) into floats, then each group of 8 floats (two
    /// pixels) summed over the taps, the symmetric pairs added first.
    private func filterRow(_ source: UnsafePointer<UInt8>, padded: UnsafeMutablePointer<Float>,
                           into target: UnsafeMutablePointer<Float>) {
        let r = radius, w = weights, centre = weights[radius]
        let src = UnsafeRawPointer(source), p = UnsafeRawPointer(padded), scratch = UnsafeMutableRawPointer(padded)
        var x0 = 0
        while x0 < width {
            let n = min(Self.segmentPixels, width &- x0)
            let first = x0 &- r, span = n &+ 2 &* r
            if first >= 0 && first &+ span <= width {
                let bytes = span &* 4, from = first &* 4
                var i = 0
                while i &+ 8 <= bytes {
                    scratch.storeBytes(of: src.loadUnaligned(fromByteOffset: from &+ i, as: SIMD8<UInt8>.self).floats,
                                       toByteOffset: i &* 4, as: SIMD8<Float>.self)
                    i &+= 8
                }
                if i < bytes {
                    scratch.storeBytes(of: src.loadUnaligned(fromByteOffset: from &+ i, as: SIMD4<UInt8>.self).floats,
                                       toByteOffset: i &* 4, as: SIMD4<Float>.self)
                }
            } else {
                for q in 0..<span {
                    let x = min(width &- 1, max(0, first &+ q))
                    scratch.storeBytes(of: src.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt8>.self).floats,
                                       toByteOffset: q &* 16, as: SIMD4<Float>.self)
                }
            }
            let out = UnsafeMutableRawPointer(target + x0 &* 4)
            var j = 0
            while j < n &* 4 {
                var sum = p.loadUnaligned(fromByteOffset: (j &+ 4 &* r) &* 4, as: SIMD8<Float>.self) * centre
                var k = 0
                while k < r {
                    let left = p.loadUnaligned(fromByteOffset: (j &+ 4 &* k) &* 4, as: SIMD8<Float>.self)
                    let right = p.loadUnaligned(fromByteOffset: (j &+ 4 &* (2 &* r &- k)) &* 4, as: SIMD8<Float>.self)
                    sum += (left + right) * w[k]
                    k &+= 1
                }
                out.storeBytes(of: sum, toByteOffset: j &* 4, as: SIMD8<Float>.self)
                j &+= 8
            }
            x0 &+= n
        }
    }

    /// The vertical pass of output rows `rows` (their filtered rows, `radius` either side, are in
    /// the ring), each pair of pixels handed to `writer`, into `output`. The rows are written in
    /// strips of `stripFloats` columns, all rows of a thread's share per strip: the ring rows a strip
    /// reads (the kernel's plus the band's) then stay in the core's cache from one output row to
    /// the next, instead of each output row reading `taps` whole rows from memory.
    func writeRows<Writer: BlurredRowWriter>(_ rows: Range<Int>, height: Int, into output: RowStream, writer: Writer) {
        split(rows) { rows, part in
            let taps = 2 * radius + 1
            let addresses = tapRows + part * taps * maxBand
            for (index, y) in rows.enumerated() {
                // The rows of the taps, the edge row standing in for those outside the image.
                for k in 0..<taps {
                    addresses[index * taps + k] = UnsafeRawPointer(filteredRow(min(height - 1, max(0, y - radius + k))))
                }
            }
            let count = width * 4
            var start = 0
            while start < count {
                let end = min(count, start + Self.stripFloats)
                for (index, y) in rows.enumerated() {
                    writeRow(y, columns: start..<end, into: output.row(y), rows: addresses + index * taps, writer: writer)
                }
                start = end
            }
        }
    }

    /// Floats per strip of `writeRows` (2 KB of each ring row).
    static let stripFloats = 512

    private func writeRow<Writer: BlurredRowWriter>(_ y: Int, columns: Range<Int>, into target: UnsafeMutablePointer<UInt8>,
                                                    rows: UnsafeMutablePointer<UnsafeRawPointer>, writer: Writer) {
        let r = radius, count = width * 4, w = weights
        let centre = rows[r]
        let source = sourceRow(y).map { UnsafeRawPointer($0) }
        let out = UnsafeMutableRawPointer(target)
        var j = columns.lowerBound
        while j < columns.upperBound {
            let offset = j &* 4
            var sum = centre.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * w[r]
            var k = 0
            while k < r {
                let above = rows[k].loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                let below = rows[2 &* r &- k].loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                sum += (above + below) * w[k]
                k &+= 1
            }
            if j &+ 8 <= count {
                let pixels = source?.loadUnaligned(fromByteOffset: j, as: SIMD8<UInt8>.self) ?? .zero
                out.storeBytes(of: writer.write(blurred: sum, source: pixels), toByteOffset: j, as: SIMD8<UInt8>.self)
            } else {
                // The last pixel of an odd width.
                let half = source?.loadUnaligned(fromByteOffset: j, as: SIMD4<UInt8>.self) ?? .zero
                let bytes = writer.write(blurred: sum, source: SIMD8(lowHalf: half, highHalf: .zero))
                out.storeBytes(of: bytes.lowHalf, toByteOffset: j, as: SIMD4<UInt8>.self)
            }
            j &+= 8
        }
    }
}
