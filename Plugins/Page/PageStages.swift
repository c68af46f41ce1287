import SumiKit

/// The page family: stitching scrolled captures into one tall image, and writing images as PDF pages.
public enum PageStages: StageFamily {
    public static let name = "page"
    public static let stages: [StageFactory] = [
        StageFactory(StitchStage.self),
        StageFactory(PDFPageStage.self),
    ]
}
