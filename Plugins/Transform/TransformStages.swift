import SumiKit

/// The geometric transforms: `scale`.
public enum TransformStages: StageFamily {
    public static let name = "transform"
    public static let stages = [StageFactory(ScaleStage.self)]
}
