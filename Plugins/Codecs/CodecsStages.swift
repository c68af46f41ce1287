import SumiKit

/// The codec stages: `decode` (files → images) and `encode` (image or layer → file).
public enum CodecsStages: StageFamily {
    public static let name = "codecs"
    public static let stages: [StageDefinition] = [StageDefinition(DecodeStage.self), StageDefinition(EncodeStage.self)]
}
