import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// `compression: auto` decides per band of rows: the row measure (`RowContent`), the hysteresis
/// (`StripPlanner`), and pages written from drawn text, photo and mixed bands, checked with poppler.
@Suite struct StripDecisionTests {
    static let width = 240

    /// A photo-like row segment: smooth fields plus grain, every pixel unlike its neighbour.
    static func photo(_ px: inout [UInt8], y: Int, from x0: Int, to x1: Int, rng: inout SeededRandom) {
        for x in x0..<x1 {
            let i = (y * width + x) * 4
            let grain = rng.below(9) - 4
            px[i] = UInt8(clamping: 90 + x / 3 + grain)
            px[i + 1] = UInt8(clamping: 120 + Int(40 * sin(Double(x + y) / 17)) + grain)
            px[i + 2] = UInt8(clamping: 60 + y % 90 + rng.below(7))
        }
    }

    /// A line of text-like marks: antialiased strokes (a few grey levels) on white.
    static func text(_ px: inout [UInt8], y: Int, from x0: Int, to x1: Int, rng: inout SeededRandom) {
        var x = x0 + rng.below(4)
        while x + 6 < x1 {
            let levels: [UInt8] = [200, 90, 24, 24, 90, 200]
            for (k, v) in levels.enumerated() {
                let i = (y * width + x + k) * 4
                px[i] = v; px[i + 1] = v; px[i + 2] = v &+ 8
            }
            x += 6 + 3 + rng.below(8)
        }
    }

    /// A page of bands: `(kind, rows)` with kind "text", "photo" or "mixed" (photo left, text right).
    static func page(_ bands: [(String, Int)], seed: UInt64 = 3) -> Image {
        let height = bands.reduce(0) { $0 + $1.1 }
        var px = [UInt8](repeating: 255, count: width * height * 4)
        var rng = SeededRandom(seed)
        var y = 0
        for (kind, rows) in bands {
            for yy in y..<(y + rows) {
                switch kind {
                case "photo": photo(&px, y: yy, from: 0, to: width, rng: &rng)
                case "mixed":
                    photo(&px, y: yy, from: 8, to: 120, rng: &rng)
                    if yy % 12 < 8 { text(&px, y: yy, from: 130, to: width, rng: &rng) }
                default: if yy % 12 < 8 { text(&px, y: yy, from: 4, to: width, rng: &rng) }
                }
            }
            y += rows
        }
        return Image(width: width, height: height, pixels: px)
    }

    static func content(of image: Image, row y: Int) -> RowContent {
        image.pixels.withUnsafeBufferPointer { px in
            RowContent.measure(UnsafeBufferPointer(rebasing: px[(y * image.stride)..<((y + 1) * image.stride)]), width: image.width).content
        }
    }

    @Test func rowsAreMeasuredAsTextPhotoOrMixed() {
        let image = Self.page([("text", 12), ("photo", 12), ("mixed", 12)])
        #expect(Self.content(of: image, row: 2) == .plain)
        #expect(Self.content(of: image, row: 10) == .plain)   // a blank row between text lines
        #expect(Self.content(of: image, row: 15) == .photo)
        #expect(Self.content(of: image, row: 26) == .mixed)   // photo left, text right
        #expect(Self.content(of: image, row: 34) == .photo)   // photo left, white right
        // Two photos side by side with white between: one photo span.
        var px = Array(image.pixels)
        var rng = SeededRandom(9)
        for x in 0..<Self.width { let i = x * 4; px[i] = 255; px[i + 1] = 255; px[i + 2] = 255 }
        Self.photo(&px, y: 0, from: 10, to: 110, rng: &rng)
        Self.photo(&px, y: 0, from: 130, to: 230, rng: &rng)
        #expect(Self.content(of: Image(width: Self.width, height: 36, pixels: px), row: 0) == .photo)
        // A translucent pixel makes the row plain (lossless with a soft mask).
        var translucent = image.pixels
        translucent[15 * image.stride + 3] = 128
        #expect(Self.content(of: Image(width: Self.width, height: 36, pixels: translucent), row: 15) == .plain)
    }

    static func measure(_ px: [UInt8]) -> RowContent.Measure {
        px.withUnsafeBufferPointer { RowContent.measure($0, width: width) }
    }

    /// The photo span and the flat columns around it; a photo's own flat spot near its edge; letters
    /// set close together; a row of one colour.
    @Test func rowsGiveTheirPhotoSpanAndFlatSurroundings() {
        var rng = SeededRandom(21)
        // Photo in columns 8-120, text from 130: the span from the pixel before the photo's first
        // change to its last, the flat columns from the row's start to the text.
        var px = [UInt8](repeating: 255, count: Self.width * 4)
        Self.photo(&px, y: 0, from: 8, to: 120, rng: &rng)
        Self.text(&px, y: 0, from: 130, to: Self.width, rng: &rng)
        let mixed = Self.measure(px)
        #expect(mixed.content == .mixed && mixed.span == 7..<121, "\(mixed)")
        #expect(mixed.clear.map { $0.lowerBound == 0 && (130...134).contains($0.upperBound) } == true, "\(mixed)")
        // A full-width photo with six equal pixels at 200-205 and photo again after: one photo, not
        // a photo with detail beside it.
        var gap = [UInt8](repeating: 255, count: Self.width * 4)
        Self.photo(&gap, y: 0, from: 0, to: Self.width, rng: &rng)
        for x in 200..<206 { for c in 0..<4 { gap[x * 4 + c] = gap[199 * 4 + c] } }
        #expect(Self.measure(gap).content == .photo && Self.measure(gap).span == 0..<240, "\(Self.measure(gap))")
        // Letters close together make long runs with fewer changes: text, no photo span.
        var letters = [UInt8](repeating: 255, count: Self.width * 4)
        var x = 4
        while x + 8 < Self.width {
            for (k, v) in [UInt8]([160, 40, 40, 160]).enumerated() { for c in 0..<3 { letters[(x + k) * 4 + c] = v } }
            x += 6
        }
        for i in stride(from: 3, to: letters.count, by: 4) { letters[i] = 255 }
        let text = Self.measure(letters)
        #expect(text.content == .plain && text.span == nil, "\(text)")
        // One colour: flat, and which colour.
        let grey = [UInt8](repeating: 128, count: Self.width * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : $0.element }
        #expect(Self.measure(grey).flat == 0xFF80_8080 && Self.measure(grey).content == .plain)
    }

    static let photoRow = RowContent.Measure(.photo, span: 0..<240, clear: 0..<240)
    static let textRow = RowContent.Measure(.plain)
    static let busyRow = RowContent.Measure(.mixed)

    @Test func plannerWaitsForTallPhotoRunsAndEndsThemAtTheFirstOtherRow() {
        var planner = StripPlanner(mode: .auto, width: 240)
        var cuts: [StripPlanner.Cut] = []
        let blocks = [Self.textRow, Self.textRow, Self.photoRow, Self.photoRow, Self.textRow]   // 32 photo rows: too few
            + Array(repeating: Self.photoRow, count: 6) + [Self.busyRow, Self.textRow]            // 96: a JPEG strip
        for block in blocks { cuts += planner.add(rows: 16, measure: block) }
        if let last = planner.finish() { cuts.append(last) }
        // Strips begin on multiples of 12 rows and JPEG ones hold photo rows only: the JPEG strip
        // holds rows 84-167 of the photo run 80-175; the grid step 72-83 holding the run's first
        // rows is a strip of its own (the rows after the photo are busy, not plain: they stay with
        // its last rows).
        #expect(cuts == [StripPlanner.Cut(rows: 72, jpegColumns: nil, content: .mixed),
                         StripPlanner.Cut(rows: 12, jpegColumns: nil, content: .mixed),
                         StripPlanner.Cut(rows: 84, jpegColumns: 0..<240, content: .photo),
                         StripPlanner.Cut(rows: 40, jpegColumns: nil, content: .mixed)])
    }

    /// One flat colour between a photo and the grid rows around it joins the JPEG strip when it
    /// goes on `flatGuard` rows beyond them; other rows do not.
    @Test func flatRowsNextToAPhotoReachTheGrid() {
        var planner = StripPlanner(mode: .auto, width: 240)
        var cuts: [StripPlanner.Cut] = []
        let white = RowContent.Measure(.plain, flat: 0xFFFF_FFFF), grey = RowContent.Measure(.plain, flat: 0xFF80_8080)
        cuts += planner.add(rows: 30, measure: Self.textRow)
        cuts += planner.add(rows: 20, measure: white)        // rows 30-49: 48-49 reach the photo
        cuts += planner.add(rows: 100, measure: Self.photoRow)  // 50-149
        cuts += planner.add(rows: 5, measure: white)         // 150-154: 150-155 would end on the grid, but…
        cuts += planner.add(rows: 1, measure: grey)          // … 155 is another colour
        cuts += planner.add(rows: 50, measure: Self.textRow)
        cuts += planner.add(rows: 100, measure: Self.photoRow)  // 206-305
        cuts += planner.add(rows: 6, measure: white)         // 306-311: 312 is a grid row, but…
        cuts += planner.add(rows: 30, measure: Self.textRow)  // … text follows at once
        if let last = planner.finish() { cuts.append(last) }
        // JPEG 48-143 (two white rows before the photo, eighteen more above them; the five after
        // it end in grey, not on the grid) and 216-299 (the photo's first grid row, no flat rows
        // before it; the six white after it have text within 12 rows of the grid row). The grid
        // steps holding a photo's edge rows are strips of their own: 144-155 (the first photo's
        // last rows), 204-215 and 300-311 (the second's first and last).
        #expect(cuts.map(\.rows) == [48, 96, 12, 48, 12, 84, 12, 30], "\(cuts)")
        #expect(cuts.map(\.jpeg) == [false, true, false, false, false, true, false, false])
        #expect(cuts.reduce(0) { $0 + $1.rows } == 342)
    }

    /// A photo beside text: a JPEG tile over the photo's columns (out to the grid where the flat
    /// margin allows, inside it where the text is near), the rows' other columns lossless.
    @Test func photoBesideTextIsATile() {
        var planner = StripPlanner(mode: .auto, width: 240)
        var cuts: [StripPlanner.Cut] = []
        // Photo in columns 7-121 with text from column 130: out to 0 on the left (flat), in to 120
        // on the right (132 would take text).
        let beside = RowContent.Measure(.mixed, span: 7..<121, clear: 0..<130)
        let blank = RowContent.Measure(.photo, span: 7..<121, clear: 0..<240)   // between lines
        cuts += planner.add(rows: 24, measure: Self.textRow)
        for k in 0..<8 { cuts += planner.add(rows: 12, measure: k % 2 == 0 ? beside : blank) }
        cuts += planner.add(rows: 24, measure: Self.textRow)
        if let last = planner.finish() { cuts.append(last) }
        #expect(cuts == [StripPlanner.Cut(rows: 24, jpegColumns: nil, content: .plain),
                         StripPlanner.Cut(rows: 96, jpegColumns: 0..<120, content: .mixed),
                         StripPlanner.Cut(rows: 24, jpegColumns: nil, content: .plain)])
        // A narrower photo (or one whose text leaves it under 96 grid columns) stays lossless.
        var narrow = StripPlanner(mode: .auto, width: 240)
        var narrowCuts = narrow.add(rows: 200, measure: RowContent.Measure(.mixed, span: 30..<100, clear: 20..<105))
        if let last = narrow.finish() { narrowCuts.append(last) }
        #expect(narrowCuts.allSatisfy { !$0.jpeg })
    }

    @Test func plannerCutsTallStripsAndKeepsOneKindOutsideAuto() {
        for mode in [StripPlanner.Mode.auto, .lossless, .jpeg] {
            var planner = StripPlanner(mode: mode, width: 240)
            var cuts: [StripPlanner.Cut] = []
            for k in 0..<70 { cuts += planner.add(rows: 16, measure: k < 40 ? Self.photoRow : Self.textRow) }
            cuts += planner.add(rows: 5, measure: Self.textRow)
            if let last = planner.finish() { cuts.append(last) }
            #expect(cuts.reduce(0) { $0 + $1.rows } == 70 * 16 + 5)
            #expect(cuts.allSatisfy { $0.rows <= StripPlanner.maximumRows })
            switch mode {
            case .auto:
                // (The photo's last 4 rows and the text's first 8: one grid step of their own.)
                #expect(cuts.map(\.jpeg) == [true, true, true, false, false, false])
                #expect(cuts.map(\.rows) == [240, 240, 156, 12, 240, 237])
            case .lossless: #expect(cuts.allSatisfy { !$0.jpeg })
            case .jpeg: #expect(cuts.allSatisfy { $0.jpeg } && cuts.dropLast().allSatisfy { $0.rows % 16 == 0 })
            }
        }
    }

}
