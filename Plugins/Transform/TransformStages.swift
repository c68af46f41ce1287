import SumiKit

/// The geometric transforms: `scale`, `crop`, `rotate`, `flip`, `pad`.
public enum TransformStages: StageFamily {
    public static let name = "transform"
    public static let stages = [
        StageFactory(ScaleStage.self),
        StageFactory(CropStage.self),
        StageFactory(RotateStage.self),
        StageFactory(FlipStage.self),
        StageFactory(PadStage.self),
    ]
}
