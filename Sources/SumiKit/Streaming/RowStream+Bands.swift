extension RowStream {
    /// The band sequence of a stage that makes its rows from rows of `input`, top to bottom, in
    /// bands of at most `band` rows (capped at both rings' capacity): for each band of this (the
    /// output) stream it waits for the input rows `inputRows(band)` needs, reserves the band, calls
    /// `body` with both, releases the input rows and publishes the band. Input rows above the first
    /// one needed are read and released unseen; rows below the last are left to the engine to drain.
    /// The output must have begun; `inputRows` must not move backwards from band to band.
    public func mapBands(from input: RowStream, band: Int = 16, inputRows: (Range<Int>) -> Range<Int> = { $0 },
                         _ body: (RowBand, MutableRowBand) throws -> Void) throws {
        try mapBands(from: input, heights: [band], blocks: false, inputRows: inputRows, body)
    }

    /// `mapBands` for code that takes a band as one block of rows (a base address and a stride: a
    /// plugin's `band_process`): each band's input rows are its own rows, and a band also ends where
    /// either ring wraps, so `RowBand.block` and `MutableRowBand.block` are never nil. `heights` are
    /// the bands' heights, cycled (each still capped at both rings' capacity).
    package func mapBlocks(from input: RowStream, heights: [Int] = [16],
                           _ body: (RowBand, MutableRowBand) throws -> Void) throws {
        try mapBands(from: input, heights: heights, blocks: true, inputRows: { $0 }, body)
    }

    /// The one band loop (see `mapBands`): the only code that waits, reserves, releases and
    /// publishes on behalf of a band body.
    private func mapBands(from input: RowStream, heights: [Int], blocks: Bool, inputRows: (Range<Int>) -> Range<Int>,
                          _ body: (RowBand, MutableRowBand) throws -> Void) throws {
        let inputShape = try input.waitForStart()
        guard let shape else { throw StageError("the output stream was not begun") }
        guard !heights.isEmpty, heights.allSatisfy({ $0 > 0 }) else { throw StageError("band heights must be at least 1 row") }
        if blocks && (inputShape.width != shape.width || inputShape.height != shape.height) {
            throw StageError("bands of blocks need an output as large as the input")
        }
        let source = RowStorage(input), target = RowStorage(self)
        var y = 0, released = 0, index = 0
        while y < shape.height {
            let step = max(1, min(heights[index % heights.count], capacity, input.capacity))
            index += 1
            var end = min(shape.height, y + step)
            if blocks { end = min(end, y - y % slots + slots, y - y % input.slots + input.slots) }
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
            try body(RowBand(source, width: inputShape.width, rows: needed), MutableRowBand(target, width: shape.width, rows: y..<end))
            if !needed.isEmpty {
                input.release(through: needed.upperBound)
                released = max(released, needed.upperBound)
            }
            publish(through: end)
            y = end
        }
    }
}
