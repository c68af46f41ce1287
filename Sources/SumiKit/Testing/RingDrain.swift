/// The consumer of the output ring in `StageHarness.runRing`: copies each row when the stage
/// publishes it, and reads and releases rows in its own bands only when the stage waits for room
/// (so the stage always finds the ring as full as it can be). Before releasing a row it checks the
/// ring still holds the bytes published (a stage must not write a row once published), and it
/// overwrites released rows with `RingFeeder.poison` (a stage must not read back what it handed on).
final class RingDrain: RowStreamDriver {
    private var bands: BandCycle
    private var pixels: [UInt8] = []
    private var shape: ImageShape?
    private(set) var consumed = 0
    private(set) var problems: [String] = []
    private(set) var waits = 0

    init(bands: [Int]) { self.bands = BandCycle(bands) }

    func unblock(_ stream: RowStream, waitingFor wait: RowStreamWait) throws {
        waits += 1
        // Only the stage's room waits are the stage's; the harness's own waits for rows come from
        // `consumeBand`, which asks only for published rows (or the end, once the stage returned).
        guard case .room = wait else { return }
        try consumeBand(stream)
    }

    func observe(_ stream: RowStream, _ event: RowStreamEvent) {
        switch event {
        case .published(let rows):
            guard let shape = shapeOnce(stream) else { return }
            let stride = shape.width * 4
            pixels.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                for y in rows { (base + y * stride).update(from: stream.row(y), count: stride) }
            }
        case .released(let rows):
            guard let shape else { return }
            for y in rows { RingFeeder.fill(stream.row(y), bytes: shape.width * 4) }
        case .problem(let message):
            problems.append(message)
        }
    }

    /// Reads and releases the rest, after the stage returned and its stream was finished.
    func drainRest(_ stream: RowStream) throws {
        guard let shape = shapeOnce(stream) else { throw StageError("the stage never began its output image") }
        while consumed < shape.height { try consumeBand(stream) }
    }

    /// The output image as published.
    func image() throws -> Image {
        guard let shape else { throw StageError("the stage never began its output image") }
        return Image(width: shape.width, height: shape.height, pixels: pixels, metadata: shape.metadata)
    }

    private func shapeOnce(_ stream: RowStream) -> ImageShape? {
        if shape == nil, let begun = stream.shape {
            shape = begun
            pixels = [UInt8](repeating: 0, count: begun.width * begun.height * 4)
        }
        return shape
    }

    private func consumeBand(_ stream: RowStream) throws {
        guard let shape = shapeOnce(stream) else { return }
        let stride = shape.width * 4
        let end = consumed + min(bands.take(), stream.capacity, shape.height - consumed)
        guard end > consumed else { return }
        _ = try stream.waitForRows(through: end)
        let changed = pixels.withUnsafeBufferPointer { kept in
            (consumed..<end).first { y in
                guard let base = kept.baseAddress else { return false }
                return !UnsafeBufferPointer(start: stream.row(y), count: stride).elementsEqual(
                    UnsafeBufferPointer(start: base + y * stride, count: stride))
            }
        }
        if let changed { problems.append("output row \(changed) changed after it was published") }
        stream.release(through: end)
        consumed = end
    }
}
