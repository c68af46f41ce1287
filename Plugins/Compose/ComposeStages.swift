import SumiKit

/// The compositing stages: `place` positions a layer as it was positioned over a preview of an
/// image, `blend` draws layers onto images.
public enum ComposeStages: StageFamily {
    public static let name = "compose"
    public static let stages: [StageDefinition] = [StageDefinition(PlaceStage.self), StageDefinition(BlendStage.self)]
}
