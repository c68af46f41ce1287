/// What a `BandStage` prepared for its bands: the output image's side data, and the body that
/// writes each band of the output from the same rows of the input (every byte of every row).
public struct BandPlan {
    /// The output's side data (its size is the input's).
    public let metadata: ImageMetadata
    /// Writes `output.rows` from `input.rows` (the same rows).
    public let body: (RowBand, MutableRowBand) throws -> Void

    public init(metadata: ImageMetadata, body: @escaping (RowBand, MutableRowBand) throws -> Void) {
        self.metadata = metadata
        self.body = body
    }
}
