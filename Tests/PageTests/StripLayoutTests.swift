import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// Where pdf-page draws the strips of a tall page: boundaries on the page's strip grid, each strip
/// drawn a fiftieth of a row short at both ends, the last image padded to the grid with white rows
/// below the MediaBox's lower edge, the opening rectangle unchanged — and what outside readers make
/// of it (the same pixels as one image of the page).
struct StripLayoutTests {
    /// 120x14950 at 1 pixel a point: taller than 14400 points, so `/UserUnit 2`, whose grid is 24
    /// rows (24 rows are 24, 50 and 100 device pixels at 72, 150 and 300 dpi in points and 12, 25 and
    /// 50 in units of 2 points, as poppler draws the page); 14950 = 622·24 + 22, so 2 white rows.
    static let width = 120, height = 14950

    /// Rows of different colours (each row unlike its neighbours, so a row drawn twice or left out at
    /// a boundary shows), lossless.
    static func image(width: Int = StripLayoutTests.width, height: Int = StripLayoutTests.height) -> Image {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let band: Int = x / 20 * 80
                pixels[i] = UInt8((y * 37 + band) % 256)
                pixels[i + 1] = UInt8((y * 101) % 256)
                pixels[i + 2] = UInt8((y * 13 + 128) % 256)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// The page written by pdf-page (lossless strips) with an opening viewport, in `scratch`.
    static func write(_ image: Image, _ scratch: Scratch) throws -> (path: String, bytes: [UInt8]) {
        let path = scratch.file("page.pdf")
        _ = try StageHarness(PDFPageStage.self).run(
            ["path": .path(path), "compression": .string("flate"), "viewport": .rect(Rect(x: 0, y: 6000, width: Double(image.width), height: 500))],
            inputs: ["in": .image(image)])
        return (path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The numbers after `key` up to the next `]` (e.g. a MediaBox).
    static func numbers(after key: String, in text: String) -> [Double] {
        guard let range = text.range(of: key) else { return [] }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "]") else { return [] }
        return rest[..<end].split(whereSeparator: { $0 == " " || $0 == "[" }).compactMap { Double($0) }
    }

    /// Each `q w 0 0 h 0 y cm /ImK Do Q` of the content: (w, h, y).
    static func placements(in text: String) -> [(w: Double, h: Double, y: Double)] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 11, f[0] == "q", f[7] == "cm", f[9] == "Do", let w = Double(f[1]), let h = Double(f[4]), let y = Double(f[6]) else { return nil }
            return (w, h, y)
        }
    }

    /// A one-image PDF of `image` plus `padding` white rows, placed where pdf-page places a page of
    /// several strips (MediaBox, `/UserUnit` `unit` and inset alike), uncompressed.
    static func oneImagePDF(_ image: Image, padding: Int, unit: Int, to path: String) throws {
        var rgb: [UInt8] = []
        rgb.reserveCapacity(image.width * (image.height + padding) * 3)
        for i in stride(from: 0, to: image.pixels.count, by: 4) { rgb.append(contentsOf: image.pixels[i..<(i + 3)]) }
        rgb += [UInt8](repeating: 255, count: image.width * padding * 3)
        let rows = image.height + padding
        let u = Double(unit), w = PDFSyntax.number(Double(image.width) / u)
        let top = Double(image.height) / u, bottom = -Double(padding) / u
        let content = "q \(w) 0 0 \(PDFSyntax.number(top - bottom - 0.04 / u)) 0 \(PDFSyntax.number(bottom + 0.02 / u)) cm /Im0 Do Q\n"
        var objects: [[UInt8]] = [
            Array("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Array(("<< /Type /Page /Parent 2 0 R /MediaBox [0 \(PDFSyntax.number(bottom)) \(w) \(PDFSyntax.number(top))] /UserUnit \(unit)"
                + " /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").utf8),
        ]
        let imageHead = "<< /Type /XObject /Subtype /Image /Width \(image.width) /Height \(rows) /BitsPerComponent 8"
            + " /ColorSpace /DeviceRGB /Interpolate false /Length \(rgb.count) >>\nstream\n"
        var imageObject: [UInt8] = Array(imageHead.utf8)
        imageObject.append(contentsOf: rgb)
        imageObject.append(contentsOf: Array("\nendstream".utf8))
        objects.append(imageObject)
        objects.append(Array("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream".utf8))
        var out: [UInt8] = Array("%PDF-1.7\n".utf8), offsets: [Int] = []
        for (n, body) in objects.enumerated() {
            offsets.append(out.count)
            out.append(contentsOf: Array("\(n + 1) 0 obj\n".utf8))
            out.append(contentsOf: body)
            out.append(contentsOf: Array("\nendobj\n".utf8))
        }
        let xref = out.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { table += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        out += Array(table.utf8)
        try Data(out).write(to: URL(fileURLWithPath: path))
    }

    /// A reader's render at `dpi` as rows of RGB bytes (PPM).
    static func render(_ reader: String, _ pdf: String, dpi: Int, _ scratch: Scratch, name: String) throws -> (width: Int, rows: [[UInt8]]) {
        let out = scratch.file("\(name)-\(reader)-\(dpi).ppm")
        let result: ToolResult = switch reader {
        case "pdftoppm": try runTool("/usr/bin/pdftoppm", ["-r", "\(dpi)", "-singlefile", pdf, String(out.dropLast(4))])
        case "mutool": try runTool("/usr/bin/mutool", ["draw", "-q", "-r", "\(dpi)", "-c", "rgb", "-o", out, pdf, "1"])
        default: try runTool("/usr/bin/gs", ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=ppmraw", "-r\(dpi)",
                                             "-dInterpolateControl=0", "-o", out, pdf])
        }
        guard result.status == 0 else { throw ToolFailure("\(reader) at \(dpi) dpi: \(result.errors)") }
        defer { try? FileManager.default.removeItem(atPath: out) }
        return try readPPM(out, reader: reader)
    }

    /// A binary PPM's pixels as rows of RGB bytes; `reader` names what wrote it in errors.
    static func readPPM(_ path: String, reader: String) throws -> (width: Int, rows: [[UInt8]]) {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // "P6\nW H\n255\n" as these readers write it (ghostscript adds a comment line).
        var fields: [String] = [], at = 0
        while fields.count < 4 {
            while at < data.count, data[at] == 0x20 || data[at] == 0x0A { at += 1 }
            if at < data.count, data[at] == 0x23 {
                while at < data.count, data[at] != 0x0A { at += 1 }
                continue
            }
            var end = at
            while end < data.count, data[end] != 0x20 && data[end] != 0x0A { end += 1 }
            fields.append(String(decoding: data[at..<end], as: UTF8.self))
            at = end
        }
        guard let width = Int(fields[1]), let height = Int(fields[2]), data.count >= at + 1 + width * height * 3 else {
            throw ToolFailure("\(reader): not a PPM (\(fields))")
        }
        let start = at + 1
        return (width, (0..<height).map { Array(data[(start + $0 * width * 3)..<(start + ($0 + 1) * width * 3)]) })
    }

    /// On the 60-row grid of `/UserUnit 5` a photo run's first grid row may lie past its first 64
    /// rows: the JPEG strip waits for it, and no strip asks for rows not added yet.
    @Test func coarseGridNeverCutsRowsNotYetAdded() {
        var planner = StripPlanner(mode: .auto, width: 240, alignment: 60)
        var added = 0, cut = 0
        var cuts: [StripPlanner.Cut] = []
        let photo = RowContent.Measure(.photo, span: 0..<240, clear: 0..<240), text = RowContent.Measure(.plain)
        for (measure, rows) in [(text, 110), (photo, 300), (text, 50), (photo, 70), (text, 30)] {
            for _ in 0..<rows {
                added += 1
                for c in planner.add(rows: 1, measure: measure) {
                    #expect(c.rows % 60 == 0 && cut + c.rows <= added, "a cut of \(c.rows) at row \(cut) with \(added) added")
                    cut += c.rows
                    cuts.append(c)
                }
            }
        }
        if let last = planner.finish() { cuts.append(last) }
        #expect(cuts.reduce(0) { $0 + $1.rows } == added)
        // The photo run 110-410 is JPEG from row 120 (its first grid row, 74 rows into the run
        // when it is promoted) to 360 (the last grid row inside it), the step 60-120 holding its
        // first rows a lossless strip apart from the text above; of the run 460-530 only 480-530
        // lies inside, less than a grid step: lossless (its first step, 420-480, a strip of its
        // own too).
        #expect(cuts.map(\.jpeg) == [false, false, true, false, false, false])
        #expect(cuts.map(\.rows) == [60, 60, 240, 60, 60, 80])
    }
}
