import SumiKit

/// The filters: `blur`, `sharpen`, `adjust`, `flatten`, `round`.
public enum FiltersStages: StageFamily {
    public static let name = "filters"
    public static let stages = [
        StageDefinition(BlurStage.self),
        StageDefinition(SharpenStage.self),
        StageDefinition(AdjustStage.self),
        StageDefinition(FlattenStage.self),
        StageDefinition(RoundStage.self),
    ]
}
