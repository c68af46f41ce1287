import Foundation
import Testing
import SumiKit
@testable import SumiPage
import SumiCodecs

/// pdf-page stores images of at most 256 colours with an `/Indexed` colour space and packed indices:
/// qpdf finds the file sound, pdfimages lists the layout and extracts every pixel unchanged.
@Suite struct IndexedImageReferenceTests {
    private func writePDF(_ image: Image, _ scratch: Scratch) throws -> String {
        let path = scratch.file("out.pdf")
        _ = try StageHarness(PDFPageStage.self).run(["path": .path(path)], inputs: ["in": .image(image)])
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0, "qpdf --check: \(check.text) \(check.errors)")
        #expect(check.text.contains("No syntax or stream encoding errors found"))
        return path
    }

    /// `pdfimages -list` rows as (type, colour, bpc, size in bytes as printed).
    private func listImages(_ path: String) throws -> [(type: String, color: String, bpc: Int, size: String)] {
        let lines = try runTool("/usr/bin/pdfimages", ["-list", path]).text.split(separator: "\n").dropFirst(2)
        return lines.map { line in
            let f = line.split(separator: " ").map(String.init)
            return (f[2], f[5], Int(f[7]) ?? -1, f[14])
        }
    }

    private static func image(width: Int, height: Int, _ color: (Int, Int) -> Color) -> Image {
        Image(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let c = color(x, y).premultiplied, i = (y * width + x) * 4
                    out[i] = c.0; out[i + 1] = c.1; out[i + 2] = c.2; out[i + 3] = c.3
                }
            }
        }
    }

    @Test(arguments: [(1, 2), (2, 2), (4, 2), (11, 4), (200, 8)])
    func fewOpaqueColoursAreIndexed(count: Int, bits: Int) throws {
        let scratch = Scratch("indexed-\(count)")
        defer { scratch.cleanUp() }
        let colours: [Color] = (0..<count).map { (i: Int) -> Color in
            let red = UInt8(i), green = UInt8(255 - i), blue = UInt8(i * 7 % 256)
            return Color(red: red, green: green, blue: blue)
        }
        let image = Self.image(width: 157, height: 61) { x, y in colours[(x / 3 + y * 5) % count] }
        let path = try writePDF(image, scratch)
        let list = try listImages(path)
        #expect(list.count == 1)
        #expect(list.first?.color == "index" && list.first?.bpc == bits)
        #expect(try runTool("/usr/bin/pdfimages", ["-png", path, scratch.file("img")]).status == 0)
        #expect(try readRGBA(scratch.file("img-000.png"), width: 157, height: 61) == image.pixels)
        // Viewers agree: the page renders to the same pixels.
        let render = ["-png", "-r", "72", "-singlefile", path, scratch.file("render")]
        #expect(try runTool("/usr/bin/pdftocairo", render).status == 0)
        #expect(try readRGBA(scratch.file("render.png"), width: 157, height: 61) == image.pixels)
    }

    @Test func translucentPaletteKeepsItsSoftMask() throws {
        let scratch = Scratch("indexed-alpha")
        defer { scratch.cleanUp() }
        let colours = [Color(red: 200, green: 30, blue: 30), Color(red: 0, green: 0, blue: 255, alpha: 128),
                       Color(red: 0, green: 0, blue: 0, alpha: 0), Color(red: 10, green: 200, blue: 90, alpha: 64)]
        let image = Self.image(width: 90, height: 40) { x, y in colours[(x / 5 + y / 3) % colours.count] }
        let path = try writePDF(image, scratch)
        let list = try listImages(path)
        #expect(list.map(\.type) == ["image", "smask"])
        #expect(list.first?.color == "index" && list.first?.bpc == 2)
        #expect(try runTool("/usr/bin/pdfimages", ["-png", path, scratch.file("img")]).status == 0)
        let colour = try readRGBA(scratch.file("img-000.png"), width: 90, height: 40)
        let alpha = try readRGBA(scratch.file("img-001.png"), width: 90, height: 40)
        var expectedColour = [UInt8](), expectedAlpha = [UInt8]()
        for p in 0..<(90 * 40) {
            let c = image.color(x: p % 90, y: p / 90)
            expectedColour += c.alpha == 0 ? [0, 0, 0, 255] : [c.red, c.green, c.blue, 255]
            expectedAlpha += [c.alpha, c.alpha, c.alpha, 255]
        }
        #expect(colour == expectedColour)
        #expect(alpha == expectedAlpha)
    }

    @Test func manyColoursStayRGBAndIndexedIsSmaller() throws {
        let scratch = Scratch("indexed-size")
        defer { scratch.cleanUp() }
        // A screen capture (97 colours), then the same with a ramp of 300 colours in two rows.
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../pipelines/samples/page-3.png").standardized
        let page = try ImageDecoder.decode([UInt8](try Data(contentsOf: sample)), name: "page-3.png")
        let width = page.width, height = page.height
        var ramp = page
        // In every strip the page is stored as (240 rows each, the last 124).
        for y in [100, 300, 600, 800] {
            for x in 0..<300 {
                let i = (y * width + x) * 4
                ramp.pixels[i] = UInt8(x % 256); ramp.pixels[i + 1] = UInt8(x / 256 * 100); ramp.pixels[i + 2] = 7; ramp.pixels[i + 3] = 255
            }
        }
        let indexedPath = try writePDF(page, scratch)
        let indexedList = try listImages(indexedPath)
        let indexedBytes = try FileManager.default.attributesOfItem(atPath: indexedPath)[.size] as? Int ?? 0
        #expect(try pageFromStrips(indexedPath, width: width, height: height, in: scratch).pixels == page.pixels)

        let rgbPath = try writePDF(ramp, scratch)
        let rgbBytes = try FileManager.default.attributesOfItem(atPath: rgbPath)[.size] as? Int ?? 0
        #expect(try listImages(rgbPath).first?.color == "rgb")
        #expect(try pageFromStrips(rgbPath, width: width, height: height, in: scratch).pixels == ramp.pixels)
        if indexedList.first?.color == "index" {
            #expect(indexedBytes * 3 < rgbBytes * 2, "indexed \(indexedBytes) bytes, RGB \(rgbBytes)")
        } else {
            Issue.record("the synthetic page has more than 256 colours: \(indexedList)")
        }
    }
}
