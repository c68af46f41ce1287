extension StageHarness {
    /// Runs the stage's streamed path with small rings driven on this thread, deterministically: each
    /// input the stage reads as rows comes through a ring of `capacity` rows that the harness fills
    /// in `bands` (cycled) only when the stage waits, and the output ring is read in `consumerBands`
    /// only when the stage waits for room — so the stage meets wrap-around, back-pressure and bands
    /// that do not line up, with no threads or sleeps. A wait nothing can satisfy (a deadlock under
    /// threads), a band larger than the ring, reading a released row (it is overwritten at once) and
    /// writing a published one fail the run with an error that says so.
    ///
    /// ```swift
    /// let out = try harness.runRows(["width": .integer(100)], inputs: ["in": .image(photo)], capacity: 5, bands: [3, 7, 1])
    /// ```
    public func runRows(_ parameters: [String: ParamValue] = [:], inputs: [String: Value] = [:], capacity: Int, bands: [Int],
                        consumerBands: [Int]? = nil, sizeHint: (@Sendable (Size) -> Size?)? = nil) throws -> Value {
        try runRing(parameters, inputs: inputs, pattern: RingPattern(capacity: capacity, bands: bands, consumerBands: consumerBands),
                    sizeHint: sizeHint).value
    }

    /// `runRows(_:inputs:capacity:bands:)` with a pattern, giving back what the harness saw on each
    /// ring besides the value (`RingRun`).
    public func runRing(_ parameters: [String: ParamValue] = [:], inputs: [String: Value] = [:], pattern: RingPattern,
                        sizeHint: (@Sendable (Size) -> Size?)? = nil) throws -> RingRun {
        try pattern.check()
        guard let stage = try make(parameters) as? any RowStage else {
            throw StageError("\(definition.descriptor.name) has no streamed path")
        }
        var values = inputs
        var feeders: [String: (RingFeeder, RowStream)] = [:]
        for (port, value) in inputs where stage.imageAccess(for: port) == .rows {
            guard case .image(let image) = value else { continue }
            let feeder = RingFeeder(image, bands: pattern.bands)
            feeders[port] = (feeder, RowStream(capacity: pattern.capacity, driver: feeder))
            values[port] = nil
        }
        let drain = stage.producesRows ? RingDrain(bands: pattern.consumerBands) : nil
        let output = drain.map { RowStream(capacity: pattern.capacity, driver: $0) }
        let name = definition.descriptor.name
        func problem() -> StageError? {
            let found = feeders.sorted { $0.key < $1.key }.lazy.compactMap { port, fed in fed.0.problems.first.map { (port, $0) } }.first
                ?? drain?.problems.first.map { ("the output", $0) }
            return found.map { StageError("\(name) on \(pattern): \($0.0 == "the output" ? $0.0 : "port \($0.0)"): \($0.1)") }
        }
        let value: Value?
        do {
            value = try stage.process(StageInputs(values, streams: feeders.mapValues { $0.1 }), context: context(sizeHint: sizeHint),
                                      output: output)
        } catch {
            throw problem() ?? error
        }
        let drainedBeforeReturn = drain?.consumed ?? 0
        let result: Value
        func checked<T>(_ check: () throws -> T) throws -> T {
            do { return try check() } catch { throw problem() ?? StageError("\(name): \(error)") }
        }
        if let drain, let output {
            try checked { try stage.checkEnded(output: output) }
            try drain.drainRest(output)
            result = .image(try drain.image())
        } else {
            result = try checked { try stage.checkEnded(value: value) }
        }
        if let problem = problem() { throw problem }
        func ring(_ stream: RowStream, releasedBeforeEnd: Int, waits: Int) -> RingRun.Ring {
            RingRun.Ring(capacity: stream.capacity, slots: stream.slots, height: stream.shape?.height ?? 0,
                         mostRowsHeld: stream.mostRowsHeld, releasedBeforeEnd: releasedBeforeEnd, waits: waits)
        }
        return RingRun(value: result,
                       inputs: feeders.mapValues { ring($0.1, releasedBeforeEnd: $0.0.releasedAtLastRow, waits: $0.0.waits) },
                       output: output.map { ring($0, releasedBeforeEnd: drainedBeforeReturn, waits: drain?.waits ?? 0) })
    }
}
