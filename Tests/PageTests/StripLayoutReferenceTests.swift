import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// Strip layouts as qpdf and poppler read them and pdftoppm, mutool and ghostscript draw them (`make test`).
@Suite struct StripLayoutReferenceTests {
    @Test func tallPageStripsSitOnTheGridDrawnShortWithAPaddedMediaBox() throws {
        let scratch = Scratch("strip-layout")
        defer { scratch.cleanUp() }
        let (path, bytes) = try StripLayoutTests.write(StripLayoutTests.image(), scratch)
        let text = String(decoding: bytes, as: UTF8.self)
        let check = try runTool("/usr/bin/qpdf", ["--check", path])
        let clean = check.status == 0 && check.text.contains("No syntax or stream encoding errors found")
        #expect(clean, "\(check.text)")
        #expect(text.contains("/UserUnit 2"))
        // 2 white rows below the page's 14950: the lower edge 1 unit below 0, the top as before.
        let mediaBox: [Double] = [0, -1, 60, 7475]
        #expect(StripLayoutTests.numbers(after: "/MediaBox", in: text) == mediaBox)
        // The CropBox is the page's own rows, in the same units.
        let cropBox: [Double] = [0, 0, 60, 7475]
        #expect(StripLayoutTests.numbers(after: "/CropBox", in: text) == cropBox)
        // The opening rectangle in the page's own coordinates, as without padding.
        let fitR: [Double] = [0, 4225, 60, 4475]    // (14950 - 6000 - 500) / 2, (14950 - 6000) / 2
        #expect(StripLayoutTests.numbers(after: "/FitR", in: text) == fitR)
        let placed = StripLayoutTests.placements(in: text)
        #expect(placed.count > 60)
        // Each strip: a whole number of 24-row grid steps from the page top (in units of 2 rows),
        // drawn 0.02 rows (0.01 unit) short at its top and bottom; the next one starts where it ends.
        var top = 7475.0
        for (i, p) in placed.enumerated() {
            #expect(p.w == 60)
            let upper: Double = p.y + p.h + 0.01, lower: Double = p.y - 0.01
            let gap: Double = abs(upper - top)
            #expect(gap < 1e-9, "strip \(i): top \(upper), expected \(top)")
            let rowsFromTop: Double = (7475 - lower) * 2
            let steps: Double = (rowsFromTop / 24).rounded()
            let offGrid: Double = abs(rowsFromTop - steps * 24)
            #expect(offGrid < 1e-9, "strip \(i) ends at row \(rowsFromTop)")
            top = lower
        }
        let lastOff: Double = abs(top + 1)
        #expect(lastOff < 1e-9, "the last strip ends at \(top), the MediaBox's lower edge is -1")
        // The images hold the page's rows and then 2 white ones: pdfimages stacks them back.
        let list = try runTool("/usr/bin/pdfimages", ["-list", path]).text
        let lines = list.split(separator: "\n").dropFirst(2)
        let heights: [Int] = lines.compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            return fields.count > 4 ? Int(fields[4]) : nil
        }
        let total = heights.reduce(0, +)
        #expect(heights.count == placed.count)
        #expect(total == 14952)
    }

    /// pdftoppm, mutool and ghostscript at 72 and 150 dpi draw the strips of a page as tall as the
    /// photo page (60x59960 at `/UserUnit 5`: 250 strips on the 60-row grid, 40 white rows) as one
    /// image: poppler exactly as its render of one image of the same pixels; mupdf and ghostscript
    /// exactly as nearest-neighbour sampling of the image (the render a reader should make; mupdf's
    /// own render of one image this tall drifts by a row past about 1000 rows at 150 dpi, so it is
    /// no reference), on every device row but the tie rows: at 150 dpi a device row every 25 whose
    /// centre lies on the boundary between two image rows, where either row is right.
    @Test(arguments: ["pdftoppm", "mutool", "gs"])
    func readersDrawTheStripsAsOneImage(reader: String) throws {
        let scratch = Scratch("strip-render")
        defer { scratch.cleanUp() }
        let width = 60, height = 59960
        let image = StripLayoutTests.image(width: width, height: height)
        let (path, bytes) = try StripLayoutTests.write(image, scratch)
        #expect(String(decoding: bytes, as: UTF8.self).contains("/MediaBox [0 -8 12 11992] /CropBox [0 0 12 11992] /UserUnit 5"))
        let reference = scratch.file("one.pdf")
        try StripLayoutTests.oneImagePDF(image, padding: 40, unit: 5, to: reference)
        for dpi in [72, 150] {
            let got = try StripLayoutTests.render(reader, path, dpi: dpi, scratch, name: "strips")
            var worst = 0, worstRow = -1
            if reader == "pdftoppm" {
                let want = try StripLayoutTests.render(reader, reference, dpi: dpi, scratch, name: "one")
                let sameSize = got.width == want.width && got.rows.count == want.rows.count
                #expect(sameSize, "\(reader) at \(dpi) dpi: sizes differ")
                for (i, (a, b)) in zip(got.rows, want.rows).enumerated() {
                    for (p, q) in zip(a, b) where abs(Int(p) - Int(q)) > worst { worst = abs(Int(p) - Int(q)); worstRow = i }
                }
            } else {
                // 72 image rows an inch (1 pixel a point), 2.5 device pixels a column at 150 dpi;
                // mupdf draws the CropBox (the page's rows), ghostscript the MediaBox (and the 40
                // white rows below them).
                let rows = Int((Double((height + (reader == "mutool" ? 0 : 40)) * dpi) / 72).rounded(.up))
                #expect(got.rows.count == rows && got.width == width * dpi / 72, "\(reader) at \(dpi) dpi: \(got.width)x\(got.rows.count)")
                for (i, row) in got.rows.enumerated() where ((2 * i + 1) * 72) % (2 * dpi) != 0 {
                    let y = (2 * i + 1) * 72 / (2 * dpi)
                    for x in 0..<got.width {
                        let source = (2 * x + 1) * width / (2 * got.width)
                        for c in 0..<3 {
                            let want: Int = y < height ? Int(image.pixels[(y * width + source) * 4 + c]) : 255
                            let d = abs(Int(row[x * 3 + c]) - want)
                            if d > worst { worst = d; worstRow = i }
                        }
                    }
                }
            }
            #expect(worst <= 1, "\(reader) at \(dpi) dpi: \(worst) levels at device row \(worstRow)")
        }
    }
}
