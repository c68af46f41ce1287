/// The producer of one input ring in `StageHarness.runRing`: publishes the source image band by
/// band, only when the stage waits for rows (so the stage always finds the ring as empty as it can
/// be), and overwrites every row the stage releases with `poison`, as a fast producer would reuse
/// its slot at once: a stage that reads a row after releasing it, or before waiting for it, reads
/// poison rather than the image.
final class RingFeeder: RowStreamDriver {
    /// Premultiplied nonsense (red above alpha) that no stage computes from real pixels.
    static let poison: [UInt8] = [0xFF, 0x00, 0xE7, 0x01]

    private let image: Image
    private var bands: BandCycle
    private var leftInBand = 0
    private var published = 0
    private(set) var problems: [String] = []
    private(set) var releasedAtLastRow = 0
    private(set) var waits = 0

    init(_ image: Image, bands: [Int]) {
        self.image = image
        self.bands = BandCycle(bands)
    }

    func unblock(_ stream: RowStream, waitingFor wait: RowStreamWait) throws {
        waits += 1
        switch wait {
        case .start:
            try stream.begin(ImageShape(image))
            let ring = stream.ring
            Self.fill(ring.base, bytes: ring.rows * ring.stride)
            if image.height == 0 { stream.finish() }
        case .rows(let row):
            while published < row { try publishBand(stream) }
        case .end:
            while published < image.height { try publishBand(stream) }
        case .room:
            break // The stage is this ring's consumer: it never waits for room here.
        }
    }

    func observe(_ stream: RowStream, _ event: RowStreamEvent) {
        switch event {
        case .published: break
        case .released(let rows): for y in rows { Self.fill(stream.row(y), bytes: image.stride) }
        case .problem(let message): problems.append(message)
        }
    }

    /// Publishes the next band (or what fits in a reservation of the ring's capacity); once the
    /// last row is out, ends the stream as the engine does when a producer returns.
    private func publishBand(_ stream: RowStream) throws {
        if leftInBand == 0 { leftInBand = bands.take() }
        let end = published + min(leftInBand, stream.capacity, image.height - published)
        try stream.reserve(through: end)
        image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for y in published..<end { stream.row(y).update(from: base + y * image.stride, count: image.stride) }
        }
        stream.publish(through: end)
        leftInBand -= end - published
        published = end
        if published == image.height {
            releasedAtLastRow = stream.releasedRows
            stream.finish()
        }
    }

    /// Fills `bytes` bytes at `start` with the poison pattern.
    static func fill(_ start: UnsafeMutablePointer<UInt8>, bytes: Int) {
        for i in 0..<bytes { start[i] = poison[i & 3] }
    }
}
