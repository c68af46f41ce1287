import SumiKit

/// The geometric transforms: `scale`, `crop`, `trim`, `rotate`, `flip`, `pad`.
public enum TransformStages: StageFamily {
    public static let name = "transform"
    public static let stages = [
        StageDefinition(ScaleStage.self),
        StageDefinition(CropStage.self),
        StageDefinition(TrimStage.self),
        StageDefinition(RotateStage.self),
        StageDefinition(FlipStage.self),
        StageDefinition(PadStage.self),
    ]
}
