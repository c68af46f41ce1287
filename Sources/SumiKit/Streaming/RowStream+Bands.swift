/// Rows `rows` of a stream, read-only, as a stage's band body sees them: each row is checked once
/// against the band, never per pixel.
public struct RowBand {
    /// The image's width in pixels (a row is `width * 4` bytes of premultiplied RGBA).
    public let width: Int
    /// The image rows in the band (empty when the band reads no input row).
    public let rows: Range<Int>
    private let stream: RowStream

    init(_ stream: RowStream, width: Int, rows: Range<Int>) {
        self.stream = stream
        self.width = width
        self.rows = rows
    }

    /// Image row `y`, which must lie in `rows`.
    public func row(_ y: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(rows.contains(y), "row \(y) is outside the band's rows \(rows)")
        return UnsafeBufferPointer(start: stream.row(y), count: width * 4)
    }
}

/// Rows `rows` of the output stream, to be written: every byte of every row.
public struct MutableRowBand {
    /// The image's width in pixels (a row is `width * 4` bytes of premultiplied RGBA).
    public let width: Int
    /// The image rows in the band.
    public let rows: Range<Int>
    private let stream: RowStream

    init(_ stream: RowStream, width: Int, rows: Range<Int>) {
        self.stream = stream
        self.width = width
        self.rows = rows
    }

    /// Image row `y`, which must lie in `rows`.
    public func row(_ y: Int) -> UnsafeMutableBufferPointer<UInt8> {
        precondition(rows.contains(y), "row \(y) is outside the band's rows \(rows)")
        return UnsafeMutableBufferPointer(start: stream.row(y), count: width * 4)
    }
}

extension RowStream {
    /// The band sequence of a stage that makes its rows from rows of `input`, top to bottom, in
    /// bands of at most `band` rows (capped at both rings' capacity): for each band of this (the
    /// output) stream it waits for the input rows `inputRows(band)` needs, reserves the band, calls
    /// `body` with both, releases the input rows and publishes the band. Input rows above the first
    /// one needed are read and released unseen; rows below the last are left to the engine to drain.
    /// The output must have begun; `inputRows` must not move backwards from band to band.
    public func mapBands(from input: RowStream, band: Int = 16, inputRows: (Range<Int>) -> Range<Int> = { $0 },
                         _ body: (RowBand, MutableRowBand) throws -> Void) throws {
        let inputShape = try input.waitForStart()
        guard let height = shape?.height else { throw StageError("the output stream was not begun") }
        let width = shape?.width ?? 0
        var y = 0, released = 0
        while y < height {
            let step = max(1, min(band, capacity, input.capacity))
            let end = min(height, y + step)
            let needed = inputRows(y..<end).clamped(to: 0..<inputShape.height)
            // Rows above the band's: read and released unseen, a ring's worth at a time.
            while released < needed.lowerBound {
                let skip = min(needed.lowerBound, released + input.capacity)
                _ = try input.waitForRows(through: skip)
                input.release(through: skip)
                released = skip
            }
            if !needed.isEmpty { _ = try input.waitForRows(through: needed.upperBound) }
            try reserve(through: end)
            try body(RowBand(input, width: inputShape.width, rows: needed), MutableRowBand(self, width: width, rows: y..<end))
            if !needed.isEmpty {
                input.release(through: needed.upperBound)
                released = max(released, needed.upperBound)
            }
            publish(through: end)
            y = end
        }
    }
}
