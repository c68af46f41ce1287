import SumiKit

extension PDFPageStage {
    /// The invisible text layer of a page whose image carries recognised words (`recognize`'s
    /// `RecognizedText`), read once the image's rows have all arrived; nil without words.
    static func textLayer(_ metadata: ImageMetadata) throws -> PDFTextLayer? {
        guard let recognized = metadata.sideData[RecognizedText.self] else { return nil }
        let layer = PDFTextLayer(try recognized.words())
        return layer.isEmpty ? nil : layer
    }
}
