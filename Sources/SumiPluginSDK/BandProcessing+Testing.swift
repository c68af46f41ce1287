import SumiKit

extension _BandProcessingMethods {
    /// Runs the band methods over an in-memory image, as a streaming host would: `beginBands`, then
    /// `processBand` for consecutive bands of `bandHeights` rows (cycled; the last band is cut to
    /// the image), then `endBands` — through `RowStream.mapBlocks`, the band loop the host runs.
    /// For tests of a stage of the deprecated `BandProcessing` (a `BandStage` is tested with
    /// `StageHarness.runRing` and its ring patterns): the result must equal the whole-image
    /// `process`'s. The result has no side data.
    public func runBands(on image: Image, bandHeights: [Int] = [16]) throws -> Image {
        guard image.width > 0, image.height > 0, !bandHeights.isEmpty, bandHeights.allSatisfy({ $0 > 0 }) else {
            throw StageError("runBands needs a non-empty image and band heights of at least 1 row")
        }
        let plan = try bandPlan(width: image.width, height: image.height)
        var completed = false
        defer { if !completed { try? endBands(completed: false) } }
        let input = RowStream.whole(Image(width: image.width, height: image.height, pixels: image.pixels))
        let output = RowStream(capacity: image.height)
        try output.begin(ImageShape(width: image.width, height: image.height))
        try output.mapBlocks(from: input, heights: bandHeights, plan.body)
        output.finish()
        completed = true
        try endBands(completed: true)
        return try output.image()
    }
}
