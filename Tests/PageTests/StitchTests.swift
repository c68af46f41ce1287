import Foundation
import Testing
import SumiKit
@testable import SumiPage
import SumiCodecs

private let width = 180, viewport = 320, header = 28, footer = 22

private func stitch(_ captures: [Image], _ parameters: [String: ParamValue] = [:]) throws -> Image {
    try StageHarness(StitchStage.self).runImage(parameters, inputs: ["in": .images(ImageList(captures))])
}

private func offsets(of image: Image) -> [Int] { image.metadata.captureRects.map { Int($0?.y ?? -1) } }

@Test(arguments: [0.05, 0.12, 0.3, 0.45, 0.6])
func losslessCapturesReassembleExactly(overlap: Double) throws {
    let page = Synthetic.page(width: width, height: 1400, header: header, footer: footer, seed: UInt64(overlap * 1000))
    let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: overlap)
    let captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer) }
    let result = try stitch(captures)
    #expect(offsets(of: result) == positions)
    #expect(result.width == page.width && result.height == page.height)
    #expect(result.pixels == page.pixels, "stitched pixels differ from the original page")
    #expect(result.metadata.captureRects.allSatisfy { $0?.x == 0 && $0?.width == Double(width) && $0?.height == Double(viewport) })
}

@Test func fixedBarsAreDetected() throws {
    let page = Synthetic.page(width: width, height: 1000, header: header, footer: footer, seed: 3)
    let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: 0.25)
    let captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer) }
    let profiles = captures.map(CaptureProfile.init)
    let detector = FixedBarDetector(captures: captures, profiles: profiles)
    // The content right below or above a bar may by chance be identical too; never less than the bar.
    let h = detector.header(limit: 100), f = detector.footer(limit: 100)
    #expect(h >= header && h <= header + 2)
    #expect(f >= footer && f <= footer + 2)
}

@Test func scrollbarAtTheEdgeDoesNotHideTheOverlap() throws {
    let page = Synthetic.page(width: width, height: 1200, header: header, footer: footer, seed: 11)
    let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: 0.2)
    let captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer, scrollbar: true) }
    let result = try stitch(captures)
    #expect(offsets(of: result) == positions)
}

/// Stitches the captures of a synthetic page at `overlap`, each saved lossily by `lossy` (the
/// capture and its index → what a phone's JPEG gives back), and checks every offset found is within
/// one row of the true one.
func checkLossyCapturesStitch(overlap: Double, lossy: (Image, Int) throws -> Image) throws {
    let page = Synthetic.page(width: width, height: 1100, header: header, footer: footer, seed: 21)
    let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: overlap)
    let captures = try positions.enumerated().map { i, s in
        try lossy(Synthetic.capture(of: page, at: s, viewport: viewport, header: header, footer: footer), i)
    }
    let result = try stitch(captures)
    let found = offsets(of: result)
    #expect(found.count == positions.count)
    for (a, b) in zip(found, positions) { #expect(abs(a - b) <= 1, "offset \(a), expected \(b)") }
    #expect(result.height == found.last.map { $0 + viewport } ?? 0)
}

/// Lossy captures made in-process (our JPEG encoder and decoder at quality 85). At 5% overlap the
/// offsets found are up to 2 rows off with these captures (ImageMagick's, in StitchReferenceTests,
/// stay within 1): that overlap is checked there only.
@Test(arguments: [0.1, 0.3, 0.55])
func jpegCapturesFindOffsetsWithinOnePixel(overlap: Double) throws {
    try checkLossyCapturesStitch(overlap: overlap) { shot, i in
        // A lossy capture, as a phone saves it: JPEG at quality 85, decoded again.
        let decoded = try ImageDecoder.decode(try JPEGEncoder.encode(shot, quality: 85), name: "c\(i).jpg")
        #expect(decoded.width == width && decoded.height == viewport)
        return Image(width: width, height: viewport, pixels: decoded.pixels)
    }
}

@Test func givenOffsetsAreUsedAsTheyAre() throws {
    let page = Synthetic.page(width: width, height: 900, header: header, footer: footer, seed: 5)
    let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: 0.3)
    let captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer) }
    let text = positions.map(String.init).joined(separator: ",")
    let fromText = try stitch(captures, ["offsets": .string(text), "header": .integer(header), "footer": .integer(footer)])
    #expect(offsets(of: fromText) == positions)
    #expect(fromText.pixels == page.pixels)
    let fromList = try stitch(captures, ["offsets": .list(positions.map { .number(Double($0)) })])
    #expect(fromList.pixels == page.pixels)
}

@Test func singleCaptureIsItself() throws {
    let page = Synthetic.page(width: 64, height: 100, header: 0, footer: 0)
    let result = try stitch([page])
    #expect(result.pixels == page.pixels)
    #expect(result.metadata.captureRects == [Rect(x: 0, y: 0, width: 64, height: 100)])
}

@Test func badInputsGiveClearErrors() throws {
    let page = Synthetic.page(width: width, height: 1200, header: header, footer: footer, seed: 9)
    let a = Synthetic.capture(of: page, at: 0, viewport: viewport, header: header, footer: footer)
    let far = Synthetic.capture(of: page, at: 800, viewport: viewport, header: header, footer: footer)
    let narrow = Synthetic.page(width: width - 10, height: viewport, header: 0, footer: 0)

    #expect { try stitch([]) } throws: { "\($0)".contains("empty list") }
    #expect { try stitch([a, narrow]) } throws: { "\($0)".contains("capture 1 is \(width - 10) pixels wide") }
    #expect { try stitch([a, a, far]) } throws: { "\($0)".contains("capture 2 overlaps none of the other captures") }
    // With offsets the same captures are accepted.
    let harness = StageHarness(StitchStage.self)
    guard case .image(let given) = try harness.run(["offsets": .string("0,800")], inputs: ["in": .images(ImageList([a, far]))]) else {
        Issue.record("stitch gave no image")
        return
    }
    #expect(given.height == 800 + viewport)
    // The rows between the captures are left transparent, with a warning.
    #expect(!given.isOpaque && given.pixel(x: 10, y: 500).a == 0)
    #expect(harness.warnings.contains { $0.contains("no capture shows") })
    #expect { try stitch([a, far], ["offsets": .string("0")]) } throws: { "\($0)".contains("1 offsets for 2 captures") }
    #expect { try stitch([a, far], ["offsets": .string("10,800")]) } throws: { ($0 as? StageError)?.parameter == "offsets" }
    #expect { try stitch([a, far], ["header": .string("top")]) } throws: { ($0 as? StageError)?.parameter == "header" }
}

@Test func headerWithAChangingClockIsStillOneBar() throws {
    let page = Synthetic.page(width: width, height: 1300, header: 60, footer: footer, seed: 17)
    let positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: 60, footer: footer, overlap: 0.2)
    var captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: 60, footer: footer) }
    // A "clock" in the status bar (rows 4–12) shows a different time on every capture.
    for i in captures.indices {
        for y in 4..<13 {
            for x in 80..<100 where (x + y + i) % 3 == 0 {
                let p = (y * width + x) * 4
                captures[i].pixels[p] = 255; captures[i].pixels[p + 1] = 255; captures[i].pixels[p + 2] = 255
            }
        }
    }
    let result = try stitch(captures)
    #expect(offsets(of: result) == positions)
    // Header rows come from the first capture, everything below is the page.
    let headerBytes = 60 * width * 4
    #expect(Array(result.pixels[0..<headerBytes]) == Array(captures[0].pixels[0..<headerBytes]))
    #expect(Array(result.pixels[headerBytes...]) == Array(page.pixels[headerBytes...]))
}

@Test func shorterLastCaptureIsPlacedAtTheBottom() throws {
    let page = Synthetic.page(width: width, height: 1000, header: header, footer: footer, seed: 23)
    var positions = Synthetic.scrollPositions(pageHeight: page.height, viewport: viewport, header: header, footer: footer, overlap: 0.3)
    positions.removeLast()
    var captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: viewport, header: header, footer: footer) }
    // The last capture is a shorter crop of the final screen (a partial screenshot, header and footer kept).
    let short = 260
    let last = Synthetic.capture(of: page, at: page.height - viewport, viewport: viewport, header: header, footer: footer)
    var cut = last.cropped(x: 0, y: 0, width: width, height: short)
    let stride = width * 4
    cut.pixels[((short - footer) * stride)..<(short * stride)] = last.pixels[((viewport - footer) * stride)...]
    cut.pixels[(header * stride)..<((short - footer) * stride)] = last.pixels[((viewport - short + header) * stride)..<((viewport - footer) * stride)]
    captures.append(cut)
    let result = try stitch(captures)
    #expect(result.height == page.height)
    #expect(result.pixels == page.pixels)
}

/// Stitching JPEG captures ImageMagick wrote and read (`make test`); the same in-process, above, in `make check`.
@Suite struct StitchReferenceTests {
    @Test(arguments: [0.05, 0.1, 0.3, 0.55])
    func jpegCapturesFindOffsetsWithinOnePixel(overlap: Double) throws {
        let scratch = Scratch("jpeg-stitch")
        defer { scratch.cleanUp() }
        try checkLossyCapturesStitch(overlap: overlap) { shot, i in
            let path = scratch.file("c\(i).jpg")
            try writeWithConvert(shot, to: path, options: ["-quality", "85"])
            return Image(width: width, height: viewport, pixels: try readRGBA(path, width: width, height: viewport))
        }
    }
}
