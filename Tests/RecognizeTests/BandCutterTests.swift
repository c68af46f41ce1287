@testable import SumiRecognize
import Testing

/// Where a streamed page is cut for recognition: at blank runs where there are some, overlapping
/// where there are none, every row kept by exactly one band and no band taller than allowed.
@Suite struct BandCutterTests {
    /// The bands for a page whose rows are blank where `blank` says.
    func bands(_ cutter: BandCutter, rows: Int, blank: (Int) -> Bool) -> [BandCutter.Band] {
        var cutter = cutter
        var bands: [BandCutter.Band] = []
        for y in 0..<rows {
            if let band = cutter.add(blank: blank(y)) { bands.append(band) }
        }
        if let band = cutter.finish() { bands.append(band) }
        return bands
    }

    /// Every row is kept once, bands are in order, each within `tallest` rows and holding its kept rows.
    func expectCovers(_ bands: [BandCutter.Band], rows: Int, tallest: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bands.first?.keeps.lowerBound == 0, sourceLocation: sourceLocation)
        #expect(bands.last?.keeps.upperBound == rows, sourceLocation: sourceLocation)
        for (a, b) in zip(bands, bands.dropFirst()) {
            #expect(a.keeps.upperBound == b.keeps.lowerBound, sourceLocation: sourceLocation)
            #expect(b.rows.lowerBound >= a.rows.lowerBound, sourceLocation: sourceLocation)
        }
        for band in bands {
            #expect(band.rows.count <= tallest && band.rows.lowerBound <= band.keeps.lowerBound
                    && band.keeps.upperBound <= band.rows.upperBound, "\(band)", sourceLocation: sourceLocation)
        }
    }

    @Test func blankRunsAreCutInTheirMiddleWithoutOverlap() {
        // Text lines of 30 rows, 10 blank rows between them.
        let cutter = BandCutter(shortest: 100, tallest: 200, overlap: 40, gap: 6)
        let bands = bands(cutter, rows: 1000) { $0 % 40 >= 30 }
        expectCovers(bands, rows: 1000, tallest: 200)
        for band in bands.dropLast() {
            #expect(band.rows == band.keeps, "no overlap where the page has blank rows")
            #expect(band.rows.upperBound % 40 == 35, "cut in the middle of a blank run: \(band)")
            #expect(band.rows.count >= 100)
        }
    }

    @Test func pagesWithoutBlankRunsOverlap() {
        let cutter = BandCutter(shortest: 100, tallest: 200, overlap: 40, gap: 6, height: 1000)
        let bands = bands(cutter, rows: 1000) { _ in false }
        expectCovers(bands, rows: 1000, tallest: 200)
        // 0..<200, 160..<360, … 800..<1000: the last band fills up at the last row and keeps to the end.
        #expect(bands.count == 6)
        #expect(bands.last == BandCutter.Band(rows: 800..<1000, keeps: 820..<1000))
        for (a, b) in zip(bands, bands.dropFirst()) {
            #expect(a.rows.upperBound - b.rows.lowerBound == 40, "overlap of 40 rows")
            #expect(a.keeps.upperBound == a.rows.upperBound - 20, "kept to the middle of the overlap")
        }
        // A line up to `overlap` rows tall whose centre a band keeps lies wholly in that band.
        for band in bands {
            for centre in band.keeps {
                let line = (centre - 20)..<(centre + 20)
                #expect(line.clamped(to: 0..<1000).allSatisfy { band.rows.contains($0) }, "\(band) \(centre)")
            }
        }
    }

    @Test func blankRunsTooShortOrTooEarlyAreNotCuts() {
        let cutter = BandCutter(shortest: 100, tallest: 200, overlap: 40, gap: 6)
        // Runs of 5 blank rows (under the gap) every 20 rows, and one long run at row 50 (too early).
        let bands = bands(cutter, rows: 500) { ($0 % 20 < 5) || (50..<80).contains($0) }
        expectCovers(bands, rows: 500, tallest: 200)
        #expect(bands[0].rows == 0..<200 && bands[1].rows.lowerBound == 160)
    }

    @Test func shortAndEmptyPages() {
        let cutter = BandCutter(shortest: 100, tallest: 200, overlap: 40, gap: 6)
        #expect(bands(cutter, rows: 0) { _ in false }.isEmpty)
        #expect(bands(cutter, rows: 150) { _ in true } == [BandCutter.Band(rows: 0..<150, keeps: 0..<150)])
    }

    /// A band keeps the words of the lines whose centre lies in its kept rows, moved to page rows.
    @Test func bandsKeepTheLinesCentredInThem() {
        func word(_ text: String, top: Int, bottom: Int) -> TesseractEngine.Word {
            TesseractEngine.Word(text: text, box: .init(x: 0, y: Double(top), width: 10, height: Double(bottom - top)),
                                 confidence: 90, block: 0, line: 0, lineTop: top, lineBottom: bottom, baseline: bottom)
        }
        let band = BandCutter.Band(rows: 160..<360, keeps: 180..<340)
        let kept = BandRecognizer.kept([word("cut", top: 0, bottom: 30), word("inside", top: 50, bottom: 80),
                                        word("edge", top: 170, bottom: 200)], in: band, index: 3)
        #expect(kept.map(\.word.text) == ["inside"])
        #expect(kept.first?.word.box.y == 210 && kept.first?.word.baseline == 240 && kept.first?.band == 3)
    }
}
