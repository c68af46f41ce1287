import Foundation
import Testing
import SumiKit
@testable import SumiPage
import SumiCodecs

/// `qpdf --check` must find nothing wrong.
private func expectValidPDF(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let check = try runTool("/usr/bin/qpdf", ["--check", path])
    #expect(check.status == 0, "qpdf --check: \(check.text) \(check.errors)", sourceLocation: sourceLocation)
    #expect(check.text.contains("No syntax or stream encoding errors found"), sourceLocation: sourceLocation)
}

/// An object as qpdf prints it.
private func showObject(_ path: String, _ number: Int) throws -> String {
    try runTool("/usr/bin/qpdf", ["--show-object=\(number)", path]).text
}

/// The numbers in a `[ ... ]` array that follows `key` in qpdf's rendering of an object.
private func numbers(after key: String, in text: String) -> [Double] {
    guard let range = text.range(of: key) else { return [] }
    let rest = text[range.upperBound...]
    guard let end = rest.firstIndex(of: "]") else { return [] }
    return rest[..<end].split(whereSeparator: { $0 == " " || $0 == "[" }).compactMap { Double($0) }
}

/// The page objects in order, from `qpdf --show-pages`.
private func pageObjects(_ path: String) throws -> [Int] {
    let text = try runTool("/usr/bin/qpdf", ["--show-pages", path]).text
    return text.split(separator: "\n").compactMap { line -> Int? in
        guard line.hasPrefix("page "), let obj = line.split(separator: ":").last?.split(separator: " ").first else { return nil }
        return Int(obj)
    }
}

private func pdfinfoPageSize(_ path: String) throws -> String {
    let info = try runTool("/usr/bin/pdfinfo", [path]).text
    return info.split(separator: "\n").first { $0.hasPrefix("Page size:") }.map {
        String($0.dropFirst("Page size:".count)).trimmingCharacters(in: .whitespaces)
    } ?? ""
}

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-3) -> Bool { abs(a - b) <= tolerance }

/// pdf-page's files as qpdf, poppler (pdfinfo, pdfimages, pdftocairo) and ImageMagick read them (`make
/// test`; PDFPageTests checks what needs no outside program in `make check`).
@Suite struct PDFPageReferenceTests {
    @Test func losslessPageRoundTripsExactly() throws {
        let scratch = Scratch("lossless")
        defer { scratch.cleanUp() }
        let image = Synthetic.page(width: 240, height: 600, header: 20, footer: 20, seed: 4)
        let (report, path) = try writePDF([image], scratch, ["title": .string("Long page (test) \\ é")])
        try expectValidPDF(path)
        #expect(try pdfinfoPageSize(path).hasPrefix("240 x 600 pts"))
        #expect(report.format == "pdf" && report.pages == 1 && report.currentPage == 0)
        #expect(report.width == 240 && report.height == 600)
        #expect(report.rectInCurrentPage == .zero)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(report.bytes == size)

        let rendered = try runTool("/usr/bin/pdftocairo", ["-png", "-r", "72", "-singlefile", path, scratch.file("render")])
        #expect(rendered.status == 0)
        let pixels = try readRGBA(scratch.file("render.png"), width: 240, height: 600)
        #expect(psnr(pixels, Array(image.pixels)) > 45)

        // Three strips (240 rows, 240 and the rest), edge to edge.
        let (stored, heights) = try pageFromStrips(path, width: 240, height: 600, in: scratch)
        #expect(stored == image.pixels && heights == [240, 240, 120])

        let info = try runTool("/usr/bin/pdfinfo", [path]).text
        #expect(info.contains("Title:           Long page (test) \\ é"))
        #expect(info.contains("Producer:        Sumi"))
        #expect(!(try showObject(path, 1)).contains("/OpenAction"))
    }

    @Test func alphaIsKeptAsSoftMask() throws {
        let scratch = Scratch("alpha")
        defer { scratch.cleanUp() }
        // Premultiplied: a red-to-blue ramp fading out from left to right.
        let w = 64, h = 32
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let a = 255 - x * 4, r = 255 - y * 8, b = y * 8
                let i = (y * w + x) * 4
                px[i] = UInt8((r * a + 127) / 255); px[i + 1] = 0; px[i + 2] = UInt8((b * a + 127) / 255); px[i + 3] = UInt8(a)
            }
        }
        let image = Image(width: w, height: h, pixels: px)
        let (_, path) = try writePDF([image], scratch)
        try expectValidPDF(path)
        let list = try runTool("/usr/bin/pdfimages", ["-list", path]).text
        #expect(list.contains("smask"))
        _ = try runTool("/usr/bin/pdftocairo", ["-png", "-r", "72", "-singlefile", path, scratch.file("render")])
        let rendered = try readRGBA(scratch.file("render.png"), width: w, height: h)
        // Expected: the premultiplied colour over white paper.
        var onWhite = px
        for i in stride(from: 0, to: px.count, by: 4) {
            for c in 0..<3 { onWhite[i + c] = UInt8(min(255, Int(px[i + c]) + 255 - Int(px[i + 3]))) }
            onWhite[i + 3] = 255
        }
        #expect(psnr(rendered, onWhite) > 40)
    }

    @Test func unmodifiedJPEGIsEmbeddedByteForByte() throws {
        let scratch = Scratch("jpeg")
        defer { scratch.cleanUp() }
        let source = Synthetic.page(width: 200, height: 150, header: 10, footer: 10, seed: 8)
        let jpegPath = scratch.file("source.jpg")
        try writeWithConvert(source, to: jpegPath, options: ["-quality", "85"])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpegPath)))
        let decoded = try readRGBA(jpegPath, width: 200, height: 150)
        let image = Image(width: 200, height: 150, pixels: decoded,
                          metadata: ImageMetadata(sourceFormat: "jpeg", sourceBytes: bytes, knownOpaque: true))
        let (_, path) = try writePDF([image], scratch)
        try expectValidPDF(path)
        _ = try runTool("/usr/bin/pdfimages", ["-all", path, scratch.file("x")])
        let embedded = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.file("x-000.jpg"))))
        #expect(embedded == bytes)

        // `flate` stores the same pixels losslessly instead.
        let harness = StageHarness(PDFPageStage.self)
        let flatePath = scratch.file("flate.pdf")
        _ = try harness.run(["path": .path(flatePath), "compression": .string("flate"), "quality": .integer(50)], inputs: ["in": .image(image)])
        #expect(harness.warnings.contains { $0.contains("quality") })
        try expectValidPDF(flatePath)
        #expect(try runTool("/usr/bin/pdfimages", ["-list", flatePath]).text.contains("image")) 
        #expect(!FileManager.default.fileExists(atPath: scratch.file("y-000.jpg")))
        _ = try runTool("/usr/bin/pdfimages", ["-png", flatePath, scratch.file("y")])
        #expect(try readRGBA(scratch.file("y-000.png"), width: 200, height: 150) == decoded)
    }

    @Test func veryTallPageUsesUserUnitConsistently() throws {
        let scratch = Scratch("tall")
        defer { scratch.cleanUp() }
        let image = Image(width: 1170, height: 40000, fill: Color(red: 240, green: 244, blue: 250))
        let viewport = Rect(x: 0, y: 30000, width: 1170, height: 2532)
        let (report, path) = try writePDF([image], scratch, ["viewport": .rect(viewport)])
        try expectValidPDF(path)
        // True points in the report; the page itself in units of 3 points.
        #expect(report.width == 1170 && report.height == 40000)
        let page = try showObject(path, try #require(try pageObjects(path).first))
        #expect(page.contains("/UserUnit 3"))
        let box = numbers(after: "/MediaBox", in: page)
        #expect(box.count == 4 && close(box[2], 390) && close(box[3], 40000.0 / 3))
        let fit = numbers(after: "/FitR", in: try showObject(path, 1))
        let expected = [0, (40000 - 30000 - 2532) / 3.0, 390, (40000 - 30000) / 3.0]
        #expect(fit.count == 4 && zip(fit, expected).allSatisfy { close($0, $1) }, "FitR \(fit)")
        let rect = try #require(report.rectInCurrentPage)
        #expect(rect == Rect(x: 0, y: 40000 - 30000 - 2532, width: 1170, height: 2532))
        // The MediaBox reaches 32 white rows (that bring the last strip onto the 36-row grid of
        // /UserUnit 3) below the page's 40000; the CropBox, whose size pdfinfo gives (in user
        // units: 3 × that is the true size), is the page's 40000 rows.
        #expect(box.count == 4 && close(box[1], -32.0 / 3))
        let crop = numbers(after: "/CropBox", in: page)
        #expect(crop.count == 4 && crop[0] == 0 && crop[1] == 0 && close(crop[2], 390) && close(crop[3], 40000.0 / 3), "\(crop)")
        let size = try pdfinfoPageSize(path)
        #expect(size.hasPrefix("390 x 13333.3") || size.hasPrefix("1170 x 40000"), "pdfinfo: \(size)")
    }

    @Test(arguments: [(Rect(x: 0, y: 0, width: 300, height: 200), 1.0),
                      (Rect(x: 10, y: 500, width: 280, height: 300), 2.0),
                      (Rect(x: 50.5, y: 123, width: 100, height: 77), 3.0),
                      (Rect(x: 0, y: 1000, width: 300, height: 200), 0.75)])
    func fitRAndReportAgreeWithTheFormula(viewport: Rect, scale: Double) throws {
        let scratch = Scratch("fitr")
        defer { scratch.cleanUp() }
        let image = Image(width: 300, height: 1200, fill: .black)
        let (report, path) = try writePDF([image], scratch, ["viewport": .rect(viewport), "scale": .number(scale)])
        try expectValidPDF(path)
        let expected = Rect(x: viewport.x / scale, y: (1200 - viewport.y - viewport.height) / scale,
                            width: viewport.width / scale, height: viewport.height / scale)
        let rect = try #require(report.rectInCurrentPage)
        #expect(close(rect.x, expected.x) && close(rect.y, expected.y) && close(rect.width, expected.width) && close(rect.height, expected.height))
        #expect(close(report.width, 300 / scale) && close(report.height, 1200 / scale))
        let catalog = try showObject(path, 1)
        let fit = numbers(after: "/FitR", in: catalog)
        #expect(fit.count == 4)
        #expect(zip(fit, [expected.x, expected.y, expected.maxX, expected.maxY]).allSatisfy { close($0, $1) }, "FitR \(fit)")
        let pages = try pageObjects(path)
        #expect(catalog.contains("/OpenAction [ \(pages[0]) 0 R /FitR"))
        #expect(try runTool("/usr/bin/pdfinfo", ["-custom", path]).text.contains("SumiViewport"))
    }

    @Test func currentPageSelectsTheSecondOfThree() throws {
        let scratch = Scratch("pages")
        defer { scratch.cleanUp() }
        let images = [Image(width: 100, height: 200, fill: .black), Image(width: 120, height: 300, fill: .white),
                      Image(width: 80, height: 90, fill: .black)]
        let (report, path) = try writePDF(images, scratch, ["current-page": .integer(1), "viewport": .string("10,20,50,100")])
        try expectValidPDF(path)
        #expect(report.pages == 3 && report.currentPage == 1)
        #expect(report.width == 120 && report.height == 300)
        #expect(report.rectInCurrentPage == Rect(x: 10, y: 180, width: 50, height: 100))
        let pages = try pageObjects(path)
        #expect(pages.count == 3)
        #expect(try showObject(path, 1).contains("/OpenAction [ \(pages[1]) 0 R /FitR 10 180 60 280 ]"))
        let info = try runTool("/usr/bin/pdfinfo", ["-f", "1", "-l", "3", path]).text
        #expect(info.contains("Page    2 size:  120 x 300 pts"))
    }

    @Test func jpegCompressionReencodesWithSoftMaskForAlpha() throws {
        let scratch = Scratch("reencode")
        defer { scratch.cleanUp() }
        let opaque = Synthetic.page(width: 160, height: 120, header: 10, footer: 10, seed: 12)
        let (_, path) = try writePDF([opaque], scratch, ["compression": .string("jpeg"), "quality": .integer(92)])
        try expectValidPDF(path)
        let list = try runTool("/usr/bin/pdfimages", ["-list", path]).text
        #expect(list.contains("jpeg") && !list.contains("smask"))
        _ = try runTool("/usr/bin/pdftocairo", ["-png", "-r", "72", "-singlefile", path, scratch.file("render")])
        #expect(psnr(try readRGBA(scratch.file("render.png"), width: 160, height: 120), Array(opaque.pixels)) > 25)

        var translucent = Image(width: 40, height: 30, fill: Color(red: 200, green: 40, blue: 40, alpha: 128))
        translucent.metadata.knownOpaque = false
        let (_, maskPath) = try writePDF([translucent], scratch, name: "mask.pdf", ["compression": .string("jpeg")])
        try expectValidPDF(maskPath)
        let maskList = try runTool("/usr/bin/pdfimages", ["-list", maskPath]).text
        #expect(maskList.contains("jpeg") && maskList.contains("smask"))
        _ = try runTool("/usr/bin/pdftocairo", ["-png", "-r", "72", "-singlefile", maskPath, scratch.file("mask")])
        let shown = try readRGBA(scratch.file("mask.png"), width: 40, height: 30)
        // 50% red over white paper: about (228, 147, 147).
        #expect(abs(Int(shown[0]) - 228) <= 4 && abs(Int(shown[1]) - 147) <= 4 && abs(Int(shown[2]) - 147) <= 4)
    }

    @Test func decodedJPEGPassesThroughAndStitchedCapturesGiveTheViewport() throws {
        let scratch = Scratch("chain")
        defer { scratch.cleanUp() }
        let source = Synthetic.page(width: 120, height: 90, header: 0, footer: 0, seed: 2)
        let jpegPath = scratch.file("photo.jpg")
        try writeWithConvert(source, to: jpegPath, options: ["-quality", "80"])
        let decoded = try StageHarness(DecodeStage.self).runImage(["path": .path(jpegPath)])
        let (_, path) = try writePDF([decoded], scratch)
        _ = try runTool("/usr/bin/pdfimages", ["-all", path, scratch.file("x")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("x-000.jpg"))) == Data(contentsOf: URL(fileURLWithPath: jpegPath)))

        // stitch → pdf-page: capture 2's viewport, in points from the bottom-left.
        let page = Synthetic.page(width: 150, height: 900, header: 20, footer: 16, seed: 31)
        let positions = Synthetic.scrollPositions(pageHeight: 900, viewport: 300, header: 20, footer: 16, overlap: 0.25)
        let captures = positions.map { Synthetic.capture(of: page, at: $0, viewport: 300, header: 20, footer: 16) }
        let stitched = try StageHarness(StitchStage.self).runImage([:], inputs: ["in": .images(ImageList(captures))])
        let (report, stitchedPath) = try writePDF([stitched], scratch, name: "page.pdf", ["viewport": .string("capture:2"), "scale": .number(3)])
        try expectValidPDF(stitchedPath)
        #expect(report.rectInCurrentPage == Rect(x: 0, y: Double(900 - positions[2] - 300) / 3, width: 50, height: 100))
        #expect(try pageFromStrips(stitchedPath, width: 150, height: 900, in: scratch).pixels == page.pixels)
    }

    @Test(arguments: [(1, 1), (1, 300), (3, 2), (517, 259)])
    func oddSizesRoundTripExactly(width: Int, height: Int) throws {
        let scratch = Scratch("odd")
        defer { scratch.cleanUp() }
        var rng = SeededRandom(UInt64(width * 1000 + height))
        var px = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: px.count, by: 4) {
            px[i] = UInt8(rng.below(256)); px[i + 1] = UInt8(i / 4 % 256); px[i + 2] = UInt8(rng.below(4) * 60)
        }
        let image = Image(width: width, height: height, pixels: px)
        // Noise: `auto` would store it as a photo (JPEG); `flate` keeps every pixel.
        let (_, path) = try writePDF([image], scratch, ["compression": .string("flate")])
        try expectValidPDF(path)
        #expect(try pageFromStrips(path, width: width, height: height, in: scratch).pixels == px)
    }

    @Test func greyscaleJPEGPassesThroughAsDeviceGray() throws {
        let scratch = Scratch("grey")
        defer { scratch.cleanUp() }
        let source = Synthetic.page(width: 90, height: 70, header: 0, footer: 0, seed: 14)
        let jpegPath = scratch.file("grey.jpg")
        try writeWithConvert(source, to: jpegPath, options: ["-colorspace", "Gray", "-quality", "80"])
        let decoded = try StageHarness(DecodeStage.self).runImage(["path": .path(jpegPath)])
        let (_, path) = try writePDF([decoded], scratch)
        try expectValidPDF(path)
        let list = try runTool("/usr/bin/pdfimages", ["-list", path]).text
        #expect(list.contains("gray") && list.contains("jpeg"))
        _ = try runTool("/usr/bin/pdfimages", ["-all", path, scratch.file("g")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.file("g-000.jpg"))) == Data(contentsOf: URL(fileURLWithPath: jpegPath)))
    }

    /// The file crossReferenceOffsetsPointAtTheirObjects (PDFPageTests) checks byte by byte, as qpdf reads it.
    @Test func qpdfFindsTheCrossReferenceSound() throws {
        let scratch = Scratch("xref")
        defer { scratch.cleanUp() }
        var alpha = Image(width: 20, height: 20, fill: Color(red: 10, green: 20, blue: 30, alpha: 128))
        alpha.metadata.knownOpaque = false
        let (_, path) = try writePDF([Image(width: 30, height: 40, fill: .black), alpha], scratch)
        try expectValidPDF(path)
    }
}
