import SumiKit
import Testing

/// The side data of recognised words: its declared rule under each kind of change, and the promise
/// a streaming recogniser fills at its last row.
@Suite struct RecognizedTextTests {
    static let words = [
        RecognizedWord(text: "left", box: Rect(x: 10, y: 20, width: 40, height: 10), confidence: 95, line: 0, block: 0, baseline: 28),
        RecognizedWord(text: "right", box: Rect(x: 80, y: 20, width: 50, height: 10), confidence: 91, line: 0, block: 0, baseline: 28),
        RecognizedWord(text: "below", box: Rect(x: 10, y: 70, width: 45, height: 12), confidence: 88, line: 1, block: 1, baseline: 80),
    ]

    static func metadata() -> ImageMetadata {
        var metadata = ImageMetadata()
        metadata.sideData[RecognizedText.self] = RecognizedText.Value(source: RecognizedWords(words))
        return metadata
    }

    func words(after change: ImageChange) throws -> [RecognizedWord]? {
        try Self.metadata().applying(change).sideData[RecognizedText.self]?.words()
    }

    @Test func pixelChangesKeepTheWords() throws {
        #expect(try words(after: .pixels) == Self.words)
    }

    @Test func cropsMoveAndClipTheBoxesAndDropWordsWhoseCentreLeaves() throws {
        // Keep x 20..<100, y 15..<60: "left" is clipped on its left, "right" on its right (its
        // centre, 105, is outside: dropped), "below" is outside.
        let kept = try #require(try words(after: .geometry(.crop(x: 20, y: 15, width: 80, height: 45))))
        #expect(kept.map(\.text) == ["left"])
        #expect(kept[0].box == Rect(x: 0, y: 5, width: 30, height: 10))
        #expect(kept[0].baseline == 13)
    }

    @Test func scalesScaleTheBoxes() throws {
        let scaled = try #require(try words(after: .geometry(.resize(fromWidth: 200, fromHeight: 100, toWidth: 100, toHeight: 200))))
        #expect(scaled.map(\.box) == [Rect(x: 5, y: 40, width: 20, height: 20), Rect(x: 40, y: 40, width: 25, height: 20),
                                       Rect(x: 5, y: 140, width: 22.5, height: 24)])
        #expect(scaled.map(\.baseline) == [56, 56, 160])
        // A crop then a scale: both, in order.
        let both = ImageChange.geometry(.crop(x: 10, y: 0, width: 150, height: 100))
        let once = Self.metadata().applying(both).applying(.geometry(.resize(fromWidth: 150, fromHeight: 100, toWidth: 300, toHeight: 200)))
        let moved = try #require(try once.sideData[RecognizedText.self]?.words())
        #expect(moved.first?.box == Rect(x: 0, y: 40, width: 80, height: 20))
    }

    @Test func mirrorsTurnsAndUndescribedChangesDropTheWords() throws {
        #expect(try words(after: .geometry(.flipHorizontal(width: 200, height: 100))) == nil)
        #expect(try words(after: .geometry(.flipVertical(width: 200, height: 100))) == nil)
        #expect(try words(after: .geometry(.rotate(quarterTurns: 1, width: 200, height: 100))) == nil)
        #expect(try words(after: .unknown) == nil)
        // A turn by 360° keeps them.
        #expect(try words(after: .geometry(.rotate(quarterTurns: 4, width: 200, height: 100))) == Self.words)
    }

    @Test func theWordsOfAStreamingRecogniserArriveLater() throws {
        let promise = RecognizedWords()
        var metadata = ImageMetadata()
        metadata.sideData[RecognizedText.self] = RecognizedText.Value(source: promise)
        // The geometry applied before the words are known applies to them once they are.
        let cropped = metadata.applying(.geometry(.crop(x: 5, y: 0, width: 150, height: 100)))
        #expect(!promise.isResolved)
        promise.resolve(.success(Self.words))
        promise.resolve(.success([]))  // only the first counts
        #expect(try cropped.sideData[RecognizedText.self]?.words().map(\.box.x) == [5, 75, 5])
        let failed = RecognizedWords()
        failed.resolve(.failure(StageError("Tesseract stopped")))
        #expect(throws: StageError.self) { try RecognizedText.Value(source: failed).words() }
    }
}
