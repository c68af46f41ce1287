import Testing
import SumiKit
@testable import SumiPage

/// Where `compression: auto` cuts strips around a photo's edges: the photo rows a JPEG strip cannot
/// take (it begins and ends on the grid) make a lossless strip of one grid step, and the text beside
/// them a strip of its own.
@Suite struct StripEdgeTests {
    static let photo = RowContent.Measure(.photo, span: 0..<240, clear: 0..<240)
    static let text = RowContent.Measure(.plain)
    static let white = RowContent.Measure(.plain, flat: 0xFFFF_FFFF)

    /// A planned page: each cut with its first row, from bands of (measure, rows).
    static func plan(_ bands: [(RowContent.Measure, Int)], alignment: Int = 12) -> [(top: Int, cut: StripPlanner.Cut)] {
        var planner = StripPlanner(mode: .auto, width: 240, alignment: alignment)
        var cuts: [StripPlanner.Cut] = []
        for (measure, rows) in bands { cuts += planner.add(rows: rows, measure: measure) }
        if let last = planner.finish() { cuts.append(last) }
        var top = 0
        return cuts.map { cut in
            defer { top += cut.rows }
            return (top, cut)
        }
    }

    /// A photo run whose edges fall inside grid steps, text right against it: the text above ends
    /// a strip at the step holding the photo's first row, that step is a lossless strip of its own,
    /// the JPEG strip runs from the first grid row inside the photo to the last, and the step
    /// holding its last row is again a strip of its own before the text.
    @Test func photoEdgesAgainstTextAreStripsOfOneGridStep() {
        // Text 0-29, photo 30-329, text 330-449.
        let planned = Self.plan([(Self.text, 30), (Self.photo, 300), (Self.text, 120)])
        let expected: [StripPlanner.Cut] = [
            .init(rows: 24, jpegColumns: nil, content: .plain),         // 0-23: text
            .init(rows: 12, jpegColumns: nil, content: .mixed),         // 24-35: 6 text, 6 photo rows
            .init(rows: 240, jpegColumns: 0..<240, content: .photo),    // 36-275
            .init(rows: 48, jpegColumns: 0..<240, content: .photo),     // 276-323
            .init(rows: 12, jpegColumns: nil, content: .mixed),         // 324-335: 6 photo, 6 text rows
            .init(rows: 114, jpegColumns: nil, content: .plain),        // 336-449: text
        ]
        #expect(planned.map(\.cut) == expected, "\(planned.map(\.cut))")
    }

    /// Flat rows between text and a photo join the JPEG strip out to the grid row when they go on
    /// `flatGuard` rows beyond it (no photo row lossless); fewer, and the photo's edge steps are
    /// lossless strips of their own (JPEG would change a tinted flat row, or the blank rows of a
    /// line of text's box, by a level).
    @Test func flatRowsReachTheGridWithAGuardFromOtherRows() {
        // Text 0-19, white 20-43, photo 44-187, white 188-219, text 220-279: JPEG 36-191.
        let wide = Self.plan([(Self.text, 20), (Self.white, 24), (Self.photo, 144), (Self.white, 32), (Self.text, 60)])
        #expect(wide.map(\.cut.rows) == [36, 156, 88] && wide.map(\.cut.jpeg) == [false, true, false], "\(wide.map(\.cut))")
        // Text 0-19, white 20-27, photo 28-171, white 172-179, text 180-239: JPEG 36-167.
        let narrow = Self.plan([(Self.text, 20), (Self.white, 8), (Self.photo, 144), (Self.white, 8), (Self.text, 60)])
        #expect(narrow.map(\.cut.rows) == [24, 12, 132, 12, 60], "\(narrow.map(\.cut))")
        #expect(narrow.map(\.cut.jpeg) == [false, false, true, false, false])
    }

    /// Every cut begins on the grid (12 rows, or 60 with `/UserUnit 5`), and around each photo run
    /// tall enough for a JPEG strip fewer rows than one grid step per edge stay lossless; a lossless
    /// strip holding photo rows holds no text rows beyond that step (so the text around it can be a
    /// palette strip). Bands of text, white and photo of random heights, drawn from a fixed seed.
    @Test(arguments: [12, 24, 60])
    func cutsFollowContentChangesOnTheGrid(alignment a: Int) {
        var rng = SeededRandom(UInt64(a))
        for _ in 0..<40 {
            var bands: [(RowContent.Measure, Int)] = []
            var photoRuns: [Range<Int>] = [], y = 0
            for _ in 0..<8 {
                let gap = 3 * a + rng.below(4 * a)
                let framed = rng.below(2) == 0
                if framed {
                    bands.append((Self.white, 4))
                    bands.append((Self.text, gap - 8))
                    bands.append((Self.white, 4))
                } else {
                    bands.append((Self.text, gap))
                }
                y += gap
                let rows = StripPlanner.minimumPhotoRows + 2 * a + rng.below(600)
                bands.append((Self.photo, rows))
                photoRuns.append(y..<(y + rows))
                y += rows
            }
            bands.append((Self.text, 2 * a))
            let planned = Self.plan(bands, alignment: a)
            #expect(planned.reduce(0) { $0 + $1.cut.rows } == y + 2 * a)
            for (top, cut) in planned {
                #expect(top % a == 0, "a cut at row \(top), grid \(a)")
                #expect(cut.rows <= StripPlanner.maximumRows)
            }
            for run in photoRuns {
                let lossless = planned.filter { !$0.cut.jpeg }.reduce(0) { sum, p in
                    sum + max(0, min(run.upperBound, p.top + p.cut.rows) - max(run.lowerBound, p.top))
                }
                #expect(lossless <= 2 * (a - 1), "photo \(run) on the \(a)-row grid: \(lossless) rows lossless")
            }
            for (top, cut) in planned where !cut.jpeg {
                let rows = top..<(top + cut.rows)
                let holdsPhoto = photoRuns.contains { $0.overlaps(rows) }
                #expect(!holdsPhoto || cut.rows <= a, "lossless strip \(rows) holds photo rows and is \(cut.rows) rows tall")
            }
        }
    }

    /// A photo-like run too short for a JPEG strip (a row of small pictures, a gradient) stays in
    /// the lossless strip around it: UI is not cut into pieces of a grid step.
    @Test func shortDetailRunsStayInTheirStrip() {
        // Text 0-99, photo 100-139 (under `minimumPhotoRows`), text 140-299.
        let planned = Self.plan([(Self.text, 100), (Self.photo, 40), (Self.text, 160)])
        #expect(planned.map(\.top) == [0, 240], "\(planned.map(\.cut))")
        #expect(planned.map(\.cut.content) == [.mixed, .plain])
        #expect(planned.allSatisfy { !$0.cut.jpeg })
    }
}
