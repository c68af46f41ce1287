import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// `compression: auto` decides per band of rows: the row measure (`RowContent`), the hysteresis
/// (`StripPlanner`), and pages written from drawn text, photo and mixed bands, checked with poppler.
@Suite struct StripDecisionTests {
    static let width = 240

    /// A photo-like row segment: smooth fields plus grain, every pixel unlike its neighbour.
    static func photo(_ px: inout [UInt8], y: Int, from x0: Int, to x1: Int, rng: inout SplitMix) {
        for x in x0..<x1 {
            let i = (y * width + x) * 4
            let grain = rng.below(9) - 4
            px[i] = UInt8(clamping: 90 + x / 3 + grain)
            px[i + 1] = UInt8(clamping: 120 + Int(40 * sin(Double(x + y) / 17)) + grain)
            px[i + 2] = UInt8(clamping: 60 + y % 90 + rng.below(7))
        }
    }

    /// A line of text-like marks: antialiased strokes (a few grey levels) on white.
    static func text(_ px: inout [UInt8], y: Int, from x0: Int, to x1: Int, rng: inout SplitMix) {
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
        var rng = SplitMix(seed)
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
            RowContent.classify(UnsafeBufferPointer(rebasing: px[(y * image.stride)..<((y + 1) * image.stride)]), width: image.width)
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
        var px = image.pixels
        var rng = SplitMix(9)
        for x in 0..<Self.width { let i = x * 4; px[i] = 255; px[i + 1] = 255; px[i + 2] = 255 }
        Self.photo(&px, y: 0, from: 10, to: 110, rng: &rng)
        Self.photo(&px, y: 0, from: 130, to: 230, rng: &rng)
        #expect(Self.content(of: Image(width: Self.width, height: 36, pixels: px), row: 0) == .photo)
        // A translucent pixel makes the row plain (lossless with a soft mask).
        var translucent = image.pixels
        translucent[15 * image.stride + 3] = 128
        #expect(Self.content(of: Image(width: Self.width, height: 36, pixels: translucent), row: 15) == .plain)
    }

    @Test func plannerWaitsForTallPhotoRunsAndEndsThemAtTheFirstOtherRow() {
        var planner = StripPlanner(mode: .auto)
        var cuts: [StripPlanner.Cut] = []
        let blocks: [RowContent] = [.plain, .plain, .photo, .photo, .plain]       // 32 photo rows: too few
            + Array(repeating: .photo, count: 6) + [.mixed, .plain]                // 96: a JPEG strip
        for block in blocks { cuts += planner.add(rows: 16, content: block) }
        if let last = planner.finish() { cuts.append(last) }
        // Strips begin on multiples of 12 rows, JPEG ones 12 rows or more from other rows: the JPEG
        // strip holds rows 96-155 of the photo run 80-175.
        #expect(cuts == [StripPlanner.Cut(rows: 96, jpeg: false, content: .mixed),
                         StripPlanner.Cut(rows: 60, jpeg: true, content: .photo),
                         StripPlanner.Cut(rows: 52, jpeg: false, content: .mixed)])
    }

    @Test func plannerCutsTallStripsAndKeepsOneKindOutsideAuto() {
        for mode in [StripPlanner.Mode.auto, .lossless, .jpeg] {
            var planner = StripPlanner(mode: mode)
            var cuts: [StripPlanner.Cut] = []
            for k in 0..<70 { cuts += planner.add(rows: 16, content: k < 40 ? .photo : .plain) }
            cuts += planner.add(rows: 5, content: .plain)
            if let last = planner.finish() { cuts.append(last) }
            #expect(cuts.reduce(0) { $0 + $1.rows } == 70 * 16 + 5)
            #expect(cuts.allSatisfy { $0.rows <= StripPlanner.maximumRows })
            switch mode {
            case .auto:
                #expect(cuts.map(\.jpeg) == [false, true, true, true, false, false, false])
                #expect(cuts.map(\.rows) == [12, 240, 240, 132, 240, 240, 21])
            case .lossless: #expect(cuts.allSatisfy { !$0.jpeg })
            case .jpeg: #expect(cuts.allSatisfy { $0.jpeg } && cuts.dropLast().allSatisfy { $0.rows % 16 == 0 })
            }
        }
    }

    /// Text, photo and mixed bands: text and mixed rows lossless and exact, the photo JPEG at
    /// 40 dB or more, the strips tiling the page exactly, and the decision in the run report.
    @Test func autoPageKeepsTextExactAndPhotosAsJPEG() throws {
        let scratch = Scratch("auto-strips")
        defer { scratch.cleanUp() }
        // Text 0-96, photo 96-304 (its JPEG strip is 108-288: 12 rows from the text, on multiples of 12), mixed 304-424
        // (photo-only rows between the text lines, too few for a strip), text, a photo run of 32 rows
        // (too short for a strip of its own) at 464-496, text.
        let image = Self.page([("text", 96), ("photo", 208), ("mixed", 120), ("text", 40), ("photo", 32), ("text", 24)])
        let harness = StageHarness(PDFPageStage.self)
        let path = scratch.file("auto.pdf")
        _ = try harness.run(["path": .path(path)], inputs: ["in": .image(image)])
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let report = try #require(harness.details.last)
        guard case .object(let fields) = report, case .array(let pages)? = fields.first(where: { $0.0 == "pages" })?.1,
              case .object(let page)? = pages.first, case .array(let strips)? = page.first(where: { $0.0 == "strips" })?.1 else {
            Issue.record("no strips in \(report)"); return
        }
        func field(_ strip: JSONValue, _ name: String) -> JSONValue? {
            guard case .object(let f) = strip else { return nil }
            return f.first { $0.0 == name }?.1
        }
        let kinds = strips.compactMap { field($0, "kind") }
        let tops = strips.compactMap { if case .number(let v)? = field($0, "top") { Int(v) } else { nil } }
        let rows = strips.compactMap { if case .number(let v)? = field($0, "rows") { Int(v) } else { nil } }
        #expect(kinds == [.string("flate"), .string("jpeg"), .string("flate")], "\(strips)")   // rows 96-107 are photo
        #expect(tops == [0, 108, 288] && rows == [108, 180, 232])
        let (pixels, heights) = try pageFromStrips(path, width: image.width, height: image.height, in: scratch)
        #expect(heights == [108, 180, 240])    // the last image holds 8 white rows: 528 is on the 12-row grid
        let stride = image.stride
        for y in 0..<image.height where !(108..<288).contains(y) {
            #expect(pixels[(y * stride)..<((y + 1) * stride)] == image.pixels[(y * stride)..<((y + 1) * stride)], "row \(y)")
        }
        let photo = 108 * stride..<288 * stride
        #expect(psnr(Array(pixels[photo]), Array(image.pixels[photo])) >= 40)
        // Drawn edge to edge, each strip 0.02 rows short at both ends: each strip's rectangle starts
        // 0.04 rows from where the previous one ends; the last one's white rows lie below y = 0.
        let pageObject = try runTool("/usr/bin/qpdf", ["--show-object=4", path]).text
        let number = try #require(pageObject.range(of: "/Contents ").map { pageObject[$0.upperBound...].prefix { $0.isNumber } })
        let contents = try runTool("/usr/bin/qpdf", ["--show-object=\(number)", "--filtered-stream-data", path]).text
        #expect(contents == "q 240 0 0 107.96 0 412.02 cm /Im0 Do Q\nq 240 0 0 179.96 0 232.02 cm /Im1 Do Q\nq 240 0 0 239.96 0 -7.98 cm /Im2 Do Q\n")
    }

    /// `flate` keeps every row, photo or not; `jpeg` encodes every strip as JPEG.
    @Test func flateAndJPEGKeepOneKind() throws {
        let scratch = Scratch("one-kind")
        defer { scratch.cleanUp() }
        let image = Self.page([("text", 100), ("photo", 600), ("text", 40)])
        let harness = StageHarness(PDFPageStage.self)
        let flate = scratch.file("flate.pdf"), jpeg = scratch.file("jpeg.pdf")
        _ = try harness.run(["path": .path(flate), "compression": .string("flate")], inputs: ["in": .image(image)])
        _ = try harness.run(["path": .path(jpeg), "compression": .string("jpeg")], inputs: ["in": .image(image)])
        #expect(try pageFromStrips(flate, width: image.width, height: image.height, in: scratch).pixels == image.pixels)
        let list = try runTool("/usr/bin/pdfimages", ["-list", jpeg]).text
        #expect(list.split(separator: "\n").dropFirst(2).allSatisfy { $0.contains(" jpeg ") })
        #expect(list.split(separator: "\n").count - 2 == 4)   // 240 + 240 + 240 + 20 rows
        #expect(psnr(try pageFromStrips(jpeg, width: image.width, height: image.height, in: scratch).pixels, image.pixels) > 30)
    }
}
