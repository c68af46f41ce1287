import SumiKit

/// The recognition family: finding the text in images (OCR with Tesseract).
public enum RecognizeStages: StageFamily {
    public static let name = "recognize"
    public static let stages: [StageDefinition] = [
        StageDefinition(RecognizeStage.self),
    ]
}
