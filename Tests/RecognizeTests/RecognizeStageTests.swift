import Foundation
import SumiKit
@testable import SumiRecognize
import Testing

/// What `recognize` checks before any pixel, and its pass-through (`text: none`) through the rings.
@Suite struct RecognizeStageTests {
    @Test func aMissingLanguageNamesItsDebianPackage() throws {
        do {
            _ = try RecognizeStage.checkLanguages("eng+chi_sim", installed: ["eng", "jpn"])
            Issue.record("chi_sim is not installed")
        } catch let error as StageError {
            #expect(error.parameter == "languages" && error.isUsageError)
            #expect(error.message.contains("tesseract-ocr-chi-sim") && error.message.contains("installed here: eng, jpn"), "\(error)")
        }
        #expect(try RecognizeStage.checkLanguages("eng+jpn", installed: ["eng", "jpn"]) == ["eng", "jpn"])
        for bad in ["", "eng+", "../eng", "eng jpn", String(repeating: "a", count: 40)] {
            #expect(throws: StageError.self, "\(bad)") { try RecognizeStage.checkLanguages(bad, installed: ["eng"]) }
        }
        #expect(TesseractLibrary.debianPackage("Script_Latin") == "tesseract-ocr-script-latin")
    }

    @Test func installedLanguagesAreTheTraineddataFiles() throws {
        let folder = try TemporaryFolder.make("recognize-data")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["eng.traineddata", "osd.traineddata", "jpn_vert.traineddata", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
        }
        #expect(TesseractLibrary.installedLanguages(in: folder) == ["eng", "jpn_vert"])
        #expect(TesseractLibrary.installedLanguages(in: folder + "/missing").isEmpty)
    }

    /// Too wide an image is refused before a row is read (a band of it would hold too much).
    @Test func tooWideAnImageIsRefusedBeforeItsRows() throws {
        let harness = StageHarness(RecognizeStage.self)
        let wide = Image(width: RecognizeStage.maximumWidth + 1, height: 2, fill: Color(red: 255, green: 255, blue: 255))
        do {
            _ = try harness.runRows(["text": .string("ocr")], inputs: ["in": .image(wide)], capacity: 1, bands: [1])
            Issue.record("an image of \(wide.width) columns was recognised")
        } catch let error as StageError {
            #expect(error.isLimit && error.message.contains("16384 pixels wide"), "\(error)")
        }
    }

    @Test(arguments: RingPattern.standard)
    func textNonePassesThePixelsAndSideDataOn(pattern: RingPattern) throws {
        var image = TestImage.noise(23, 41)
        image.metadata.sideData[CaptureRectangles.self] = [Rect(x: 0, y: 0, width: 23, height: 20)]
        let run = try StageHarness(RecognizeStage.self).runRing(["text": .string("none")], inputs: ["in": .image(image)], pattern: pattern)
        guard case .image(let out) = run.value else { throw StageError("no image") }
        #expect(out.pixels == image.pixels)
        #expect(out.metadata.captureRects == image.metadata.captureRects)
        #expect(out.metadata.sideData[RecognizedText.self] == nil)
    }
}
