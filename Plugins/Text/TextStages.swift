import SumiKit

/// The text family: the `text` stage, which turns a caption into a vector text layer.
public enum TextStages: StageFamily {
    public static let name = "text"
    public static let stages: [StageDefinition] = [StageDefinition(TextStage.self)]
}
