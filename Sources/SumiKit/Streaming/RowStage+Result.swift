extension RowStage {
    /// The check every caller of the stage's `process(_:context:output:)` makes on `output` once
    /// the stage returned without error: every row was published (a stage that returns early would
    /// leave its consumers waiting); the stream is then finished, so its last rows are final.
    public func checkEnded(output: RowStream) throws {
        guard output.isComplete else { throw StageError("the stage ended without producing its image") }
        output.finish()
    }

    /// The same check for a call without an output stream: the stage returned its value.
    public func checkEnded(value: Value?) throws -> Value {
        guard let value else { throw StageError("the stage ended without producing its value") }
        return value
    }
}
