import SumiKit

/// The page family: stitching scrolled captures into one tall image, and writing images as PDF pages.
public enum PageStages: StageFamily {
    public static let name = "page"
    public static let stages: [StageDefinition] = [
        StageDefinition(StitchStage.self),
        StageDefinition(PDFPageStage.self),
    ]
}
