import Foundation
import Testing

/// The full-page job on the second drawn layout (`tools/make-photo-page.py --layout bands`, fixed
/// seed): photos at random heights over most of the page, narrow text bands between them, half of
/// them right against the photos. `auto` against `flate` on the same captures: the PDF at most 0.3×
/// the lossless one's bytes; around each photo fewer rows than a grid step per edge are lossless (the
/// run report's strips against the photo rectangles the generator drew); every line of text
/// identical, every photo 40 dB or more, no seam in mutool or ghostscript
/// (`tools/check-photo-page.py`); the CropBox the stitched page (pdfinfo).
@Suite struct PhotoBandsTests {
    @Test func photoEdgesStaySmallAndTextExact() throws {
        let dir = try CLI.temporaryFolder("photo-bands")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let captures = 12
        let drawn = try ProcessRunner.run("/usr/bin/env", ["python3", "\(CLI.root)/tools/make-photo-page.py", dir, "\(captures)", "--layout", "bands"])
        try #require(drawn.status == 0, "\(drawn.stderr)")
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(dir)/page.json"))) as? [String: Any])
        let photos = try #require(truth["photos"] as? [[Int]])
        let inputs = (0..<captures).flatMap { ["-i", "\(dir)/capture-\($0).png"] }
        let auto = "\(dir)/auto.pdf", lossless = "\(dir)/flate.pdf"
        let run = try CLI.run(["run", "pipelines/fullpage.json"] + inputs + ["-o", auto, "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let flate = try CLI.run(["run", "pipelines/fullpage.json"] + inputs + ["-o", lossless, "--set", "page.compression=flate", "--quiet"])
        try #require(flate.status == 0, "\(flate.stderr)")
        let autoBytes = try #require(try FileManager.default.attributesOfItem(atPath: auto)[.size] as? Int)
        let flateBytes = try #require(try FileManager.default.attributesOfItem(atPath: lossless)[.size] as? Int)
        #expect(Double(autoBytes) <= 0.3 * Double(flateBytes), "auto \(autoBytes) bytes, lossless \(flateBytes)")

        // The strips: which rows of each photo lie in no JPEG image over the photo's columns.
        let stages = try #require(run.reports.last?["stages"] as? [[String: Any]])
        let page = try #require(stages.compactMap { ($0["details"] as? [String: Any])?["pages"] as? [[String: Any]] }.first?.first)
        let strips = try #require(page["strips"] as? [[String: Any]])
        let jpeg = strips.filter { $0["kind"] as? String == "jpeg" }.compactMap { s -> (rows: Range<Int>, columns: Range<Int>)? in
            guard let top = s["top"] as? Int, let rows = s["rows"] as? Int, let left = s["left"] as? Int, let columns = s["columns"] as? Int else { return nil }
            return (top..<(top + rows), left..<(left + columns))
        }
        let grid = 12 * 2   // 12·U rows: the page is over 14,400 rows, /UserUnit 2
        for photo in photos where photo.count == 4 {
            let (x, y, w, h) = (photo[0], photo[1], photo[2], photo[3])
            let lossless = (y..<(y + h)).filter { row in
                !jpeg.contains { $0.rows.contains(row) && $0.columns.lowerBound <= x + 8 && $0.columns.upperBound >= x + w - 8 }
            }.count
            #expect(lossless <= 2 * (grid - 1), "photo \(photo): \(lossless) rows lossless")
        }

        let check = try ProcessRunner.run("/usr/bin/env", ["python3", "\(CLI.root)/tools/check-photo-page.py", auto, dir, "--readers", "mutool",
                                                           "--seams", "72,150,300", "--seam-readers", "mutool,gs", "--seam-limit", "12"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("text lines differing 0/"), "\(check.stdout)")

        let info = String(decoding: try #require(CLI.tool("/usr/bin/pdfinfo", ["-box", auto])), as: UTF8.self)
        let height = try #require((truth["page"] as? [Int])?.last)
        let crop = info.split(separator: "\n").first { $0.hasPrefix("CropBox:") }?.split(separator: " ").dropFirst().compactMap { Double($0) }
        #expect(crop == [0, 0, 585, Double(height) / 2], "\(info)")
    }
}
