import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// The page a reader shows is exactly the image: a page of several strips pads its last image to
/// the strip grid with white rows below the MediaBox's lower edge, and its CropBox leaves them out
/// (`pdfinfo -box`, renders by pdftocairo and pdftoppm with `-cropbox`, mupdf, ghostscript with
/// `-dUseCropBox`, `qpdf --check`; `make test`).
@Suite struct PageCropBoxReferenceTests {
    /// 390x2954 at 1 pixel a point, as the stitched sample page: 2954 = 246·12 + 2, so the last of
    /// its strips on the 12-row grid holds 10 white rows below the page.
    static let width = 390, height = 2954

    /// The page written as lossless strips, opening on its last 500 rows (so the opening rectangle
    /// touches the page's lower edge).
    static func write(_ scratch: Scratch) throws -> (path: String, text: String, output: FileOutput) {
        let path = scratch.file("page.pdf")
        let image = StripLayoutTests.image(width: width, height: height)
        let value = try StageHarness(PDFPageStage.self).run(
            ["path": .path(path), "compression": .string("flate"),
             "viewport": .rect(Rect(x: 0, y: Double(height - 500), width: Double(width), height: 500))],
            inputs: ["in": .image(image)])
        guard case .file(let output) = value else { throw ToolFailure("pdf-page gave no file") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return (path, String(decoding: bytes, as: UTF8.self), output)
    }

    /// `pdfinfo -box`'s line for `box` (MediaBox, CropBox …): left bottom right top.
    static func box(_ name: String, in info: String) -> [Double] {
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("\(name):") }) else { return [] }
        return line.split(separator: " ").dropFirst().compactMap { Double($0) }
    }

    @Test func cropBoxIsTheImageAndTheMediaBoxHoldsThePadding() throws {
        let scratch = Scratch("crop-box")
        defer { scratch.cleanUp() }
        let (path, text, output) = try Self.write(scratch)
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        #expect(check.status == 0 && check.text.contains("No syntax or stream encoding errors found"), "\(check.text)")
        let info = try runTool("/usr/bin/pdfinfo", ["-box", path])
        #expect(info.status == 0, "\(info.errors)")
        #expect(Self.box("MediaBox", in: info.text) == [0, -10, 390, 2954], "\(info.text)")
        #expect(Self.box("CropBox", in: info.text) == [0, 0, 390, 2954], "\(info.text)")
        // The page size readers report is the CropBox's.
        #expect(info.text.contains("390 x 2954 pts"), "\(info.text)")
        // The opening rectangle and the reported one lie inside it (the viewport reaches its
        // lower edge).
        let fitR = StripLayoutTests.numbers(after: "/FitR", in: text)
        #expect(fitR == [0, 0, 390, 500])
        let rect = try #require(output.rectInCurrentPage)
        #expect(rect.x >= 0 && rect.y >= 0 && rect.maxX <= 390 && rect.maxY <= 2954 && rect.height == 500, "\(rect)")
        #expect(output.width == 390 && output.height == 2954)
    }

    /// Each reader that draws the CropBox draws 2954 rows, down to the image's last row (no white
    /// band): mupdf and ghostscript draw every pixel as it is at one pixel a point, so their rows are
    /// the image's; poppler smooths images a little even there, so its CropBox render (pdftocairo,
    /// pdftoppm) is compared with its own render of the MediaBox, whose first 2954 rows it must be,
    /// the 10 below them white.
    @Test(arguments: ["pdftocairo", "pdftoppm", "mutool", "gs"])
    func readersDrawExactlyTheImage(reader: String) throws {
        let scratch = Scratch("crop-render")
        defer { scratch.cleanUp() }
        let (path, _, _) = try Self.write(scratch)
        let render = try Self.render(reader, path, cropBox: true, scratch)
        #expect(render.width == Self.width && render.rows.count == Self.height, "\(reader): \(render.width)x\(render.rows.count)")
        guard render.width == Self.width && render.rows.count == Self.height else { return }
        let white = [UInt8](repeating: 255, count: Self.width * 3)
        if reader == "pdftocairo" || reader == "pdftoppm" {
            let whole = try Self.render(reader, path, cropBox: false, scratch)
            #expect(whole.rows.count == Self.height + 10)
            #expect(Array(whole.rows.prefix(Self.height)) == render.rows, "\(reader): the CropBox render is not the MediaBox render's top")
            #expect(whole.rows.suffix(10).allSatisfy { $0 == white }, "\(reader): the MediaBox's last 10 rows are the white padding")
            #expect(render.rows[Self.height - 1] != white)
            return
        }
        // The image's rows differ from their neighbours by 37 levels or more in red: the rows
        // drawn are the image's within a level.
        let image = StripLayoutTests.image(width: Self.width, height: Self.height)
        var worst = 0, worstRow = -1
        for (y, row) in render.rows.enumerated() {
            for x in 0..<Self.width {
                for c in 0..<3 {
                    let d = abs(Int(row[x * 3 + c]) - Int(image.pixels[(y * Self.width + x) * 4 + c]))
                    if d > worst { worst = d; worstRow = y }
                }
            }
        }
        #expect(worst <= 1, "\(reader): \(worst) levels at row \(worstRow)")
    }

    /// `reader`'s render of the page at 72 dpi, of its CropBox or its MediaBox.
    static func render(_ reader: String, _ path: String, cropBox: Bool, _ scratch: Scratch) throws -> (width: Int, rows: [[UInt8]]) {
        let out = scratch.file("\(reader)-\(cropBox ? "crop" : "media")")
        let crop = cropBox ? ["-cropbox"] : []
        let result: ToolResult = switch reader {
        case "pdftocairo": try runTool("/usr/bin/pdftocairo", crop + ["-png", "-r", "72", "-singlefile", path, out])
        case "pdftoppm": try runTool("/usr/bin/pdftoppm", crop + ["-r", "72", "-singlefile", path, out])
        // (mupdf draws the CropBox: there is no other way to ask it.)
        case "mutool": try runTool("/usr/bin/mutool", ["draw", "-q", "-r", "72", "-c", "rgb", "-o", out + ".ppm", path, "1"])
        default: try runTool("/usr/bin/gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER"] + (cropBox ? ["-dUseCropBox"] : [])
                                                + ["-sDEVICE=ppmraw", "-r72", "-dInterpolateControl=0", "-o", out + ".ppm", path])
        }
        guard result.status == 0 else { throw ToolFailure("\(reader): \(result.errors)") }
        if reader == "pdftocairo" {
            // (pdftocairo writes PNG as its only lossless raster: ImageMagick reads it back.)
            let converted = try runTool("/usr/bin/convert", [out + ".png", "-depth", "8", out + ".ppm"])
            guard converted.status == 0 else { throw ToolFailure("convert: \(converted.errors)") }
        }
        return try StripLayoutTests.readPPM(out + ".ppm", reader: reader)
    }
}
