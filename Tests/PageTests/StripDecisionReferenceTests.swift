import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// Auto strip decisions in the file as qpdf, poppler and mutool read and draw it (`make test`).
@Suite struct StripDecisionReferenceTests {
    /// Text, photo and mixed bands: text lossless and exact, the photo a JPEG strip and the photo
    /// beside text JPEG columns (a JPEG image under a lossless one whose stencil leaves it those
    /// columns, both drawn full width), at 40 dB or more, the page drawn exactly as mupdf renders it,
    /// and the decision in the run report.
    @Test func autoPageKeepsTextExactAndPhotosAsJPEG() throws {
        let scratch = Scratch("auto-strips")
        defer { scratch.cleanUp() }
        // Text 0-96, photo 96-304 (its JPEG strip is 96-300: four blank rows of the text before it
        // reach the grid row 96; 300 is the last grid row inside it), photo beside text 304-424
        // (JPEG over columns 0-120 from 312, the first grid row inside the run, to 420; the grid
        // step 420-432 holding its last rows a strip of its own), text, a photo run of 32 rows (too
        // short for a strip of its own) at 464-496, text.
        let image = StripDecisionTests.page([("text", 96), ("photo", 208), ("mixed", 120), ("text", 40), ("photo", 32), ("text", 24)])
        let harness = StageHarness(PDFPageStage.self)
        let path = scratch.file("auto.pdf")
        _ = try harness.run(["path": .path(path)], inputs: ["in": .image(image)])
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let strips = try placedStrips(harness)
        let kinds = strips.map(\.kind), tops = strips.map(\.top), lefts = strips.map(\.left), columns = strips.map(\.columns)
        #expect(Array(kinds.prefix(4)) == ["palette", "jpeg", "flate", "jpeg"] && kinds[4] != "jpeg" && kinds[5] == "flate", "\(strips)")
        #expect(tops == [0, 96, 300, 312, 312, 420, 432] && strips.map(\.rows) == [96, 204, 12, 108, 108, 12, 88], "\(tops) \(strips.map(\.rows)) \(kinds)")
        // The JPEG image shows columns 0-120; the lossless one over it shows the page but those.
        #expect(lefts == [0, 0, 0, 0, 0, 0, 0] && columns == [240, 240, 240, 120, 240, 240, 240])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func count(_ text: String) -> Int {
            let needle = Array(text.utf8)
            return (0...(bytes.count - needle.count)).filter { bytes[$0] == needle[0] && Array(bytes[$0..<($0 + needle.count)]) == needle }.count
        }
        #expect(count("/ImageMask true") == 1 && count(" /Mask ") == 1)
        // mupdf at one pixel a point draws every pixel as it is.
        let rendered = try StripLayoutTests.render("mutool", path, dpi: 72, scratch, name: "auto")
        // (mupdf draws the CropBox, the image's 520 rows; the MediaBox reaches down over the last
        // image's 8 white rows to the grid.)
        #expect(rendered.width == image.width && rendered.rows.count == 520)
        var pixels = [UInt8](repeating: 255, count: image.pixels.count)
        for (y, row) in rendered.rows.enumerated() where y < image.height {
            for x in 0..<image.width { for c in 0..<3 { pixels[(y * image.width + x) * 4 + c] = row[x * 3 + c] } }
        }
        let stride = image.stride
        // Every pixel outside the JPEG strip and columns is exact: the text beside the photo too.
        for y in 0..<image.height where !(96..<300).contains(y) {
            let x0 = (312..<420).contains(y) ? 120 : 0
            let range = (y * stride + x0 * 4)..<((y + 1) * stride)
            #expect(pixels[range].elementsEqual(image.pixels[range]), "row \(y)")
        }
        let photo = 96 * stride..<300 * stride
        #expect(psnr(Array(pixels[photo]), Array(image.pixels[photo])) >= 40)
        var tile: [UInt8] = [], original: [UInt8] = []
        for y in 312..<420 {
            tile += pixels[(y * stride)..<(y * stride + 120 * 4)]
            original += image.pixels[(y * stride)..<(y * stride + 120 * 4)]
        }
        #expect(psnr(tile, original) >= 40)
        // Drawn edge to edge, each strip 0.02 rows short at both ends, the two images of the strip
        // cut in two one over the other, full width; the last one's white rows lie below y = 0.
        let pageObject = try runTool("/usr/bin/qpdf", ["--show-object=4", path]).text
        let number = try #require(pageObject.range(of: "/Contents ").map { pageObject[$0.upperBound...].prefix { $0.isNumber } })
        let contents = try runTool("/usr/bin/qpdf", ["--show-object=\(number)", "--filtered-stream-data", path]).text
        #expect(contents == """
            q 240 0 0 95.96 0 424.02 cm /Im0 Do Q
            q 240 0 0 203.96 0 220.02 cm /Im1 Do Q
            q 240 0 0 11.96 0 208.02 cm /Im2 Do Q
            q 240 0 0 107.96 0 100.02 cm /Im3 Do Q
            q 240 0 0 107.96 0 100.02 cm /Im4 Do Q
            q 240 0 0 11.96 0 88.02 cm /Im5 Do Q
            q 240 0 0 95.96 0 -7.98 cm /Im6 Do Q

            """)
    }

    /// `flate` keeps every row, photo or not; `jpeg` encodes every strip as JPEG.
    @Test func flateAndJPEGKeepOneKind() throws {
        let scratch = Scratch("one-kind")
        defer { scratch.cleanUp() }
        let image = StripDecisionTests.page([("text", 100), ("photo", 600), ("text", 40)])
        let harness = StageHarness(PDFPageStage.self)
        let flate = scratch.file("flate.pdf"), jpeg = scratch.file("jpeg.pdf")
        _ = try harness.run(["path": .path(flate), "compression": .string("flate")], inputs: ["in": .image(image)])
        _ = try harness.run(["path": .path(jpeg), "compression": .string("jpeg")], inputs: ["in": .image(image)])
        #expect(try pageFromStrips(flate, width: image.width, height: image.height, in: scratch).pixels == image.pixels)
        let list = try runTool("/usr/bin/pdfimages", ["-list", jpeg]).text
        #expect(list.split(separator: "\n").dropFirst(2).allSatisfy { $0.contains(" jpeg ") })
        #expect(list.split(separator: "\n").count - 2 == 4)   // 240 + 240 + 240 + 20 rows
        #expect(psnr(Array(try pageFromStrips(jpeg, width: image.width, height: image.height, in: scratch).pixels), Array(image.pixels)) > 30)
    }
}
