extension RowStage {
    /// A row stage on whole values — the engine never calls this, but a caller with whole images
    /// (`StageHarness.run`, a stage that delegates) does: its images are read as complete streams
    /// (`StageInputs.rows`), and an image output is collected from a stream as tall as the image.
    /// The row path is the stage's only pixel code.
    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        try processByRows(inputs, context: context)
    }

    /// The row path on whole values (what the default `process(_:context:)` runs), for a stage
    /// that declares its own `process(_:context:)` and runs its rows only in some configurations.
    public func processByRows(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let output = producesRows ? RowStream(capacity: Int.max, limits: context.options.limits) : nil
        let value = try process(inputs, context: context, output: output)
        if let output {
            try checkEnded(output: output)
            return .image(try output.image())
        }
        return try checkEnded(value: value)
    }
}

extension RowStage {
    /// The stream a stage that `producesRows` writes (the engine and the whole-image call always
    /// give one).
    public func outputStream(_ output: RowStream?) throws -> RowStream {
        guard let output else { throw StageError("\(Self.self) writes its image into a row stream, and none was given") }
        return output
    }
}
