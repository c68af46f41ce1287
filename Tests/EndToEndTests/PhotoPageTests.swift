import Foundation
import Testing

/// The full-page job on the drawn photo-rich page (`tools/make-photo-page.py`, fixed seed): its first
/// 16 captures hold full-width photos, a shop grid and a photo beside a column of text. What `auto`
/// decided is checked from outside by `tools/check-photo-page.py` (qpdf, mupdf against the page
/// rebuilt from the captures): every line of text identical, no text box under a JPEG image, every
/// photo 40 dB or more, no seam in mutool or ghostscript; and the run report shows JPEG strips and JPEG columns narrower than the page.
@Suite struct PhotoPageTests {
    @Test func autoTilesPhotosBesideTextAndKeepsTextExact() throws {
        let dir = try CLI.temporaryFolder("photo-page")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let drawn = try ProcessRunner.run("/usr/bin/env", ["python3", "\(CLI.root)/tools/make-photo-page.py", dir, "16"])
        try #require(drawn.status == 0, "\(drawn.stderr)")
        let inputs = (0..<16).flatMap { ["-i", "\(dir)/capture-\($0).png"] }
        let pdf = "\(dir)/page.pdf"
        let run = try CLI.run(["run", "pipelines/fullpage.json"] + inputs + ["-o", pdf, "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        let stages = try #require(run.reports.last?["stages"] as? [[String: Any]])
        let page = try #require(stages.compactMap { ($0["details"] as? [String: Any])?["pages"] as? [[String: Any]] }.first?.first)
        let strips = try #require(page["strips"] as? [[String: Any]])
        let width = try #require(page["width"] as? Int)
        let jpeg = strips.filter { $0["kind"] as? String == "jpeg" }
        #expect(jpeg.contains { $0["columns"] as? Int == width })
        #expect(jpeg.contains { ($0["columns"] as? Int ?? width) < width && ($0["left"] as? Int ?? -1) >= 0 })
        // A strip cut in two: its JPEG image shows some columns, its lossless image (drawn over it)
        // shows the page but those (its hole), so that together they cover the page once.
        for top in Set(strips.compactMap { $0["top"] as? Int }) {
            let row = strips.filter { $0["top"] as? Int == top }
            guard row.count > 1 else { continue }
            #expect(row.count == 2, "strip at \(top): \(row)")
            let shown = try #require(row.first { $0["kind"] as? String == "jpeg" }, "strip at \(top): \(row)")
            let over = try #require(row.first { $0["kind"] as? String != "jpeg" }, "strip at \(top): \(row)")
            let hole = try #require(over["hole"] as? [String: Any], "strip at \(top): \(row)")
            #expect(hole["left"] as? Int == shown["left"] as? Int && hole["columns"] as? Int == shown["columns"] as? Int)
            #expect(over["left"] as? Int == 0 && over["columns"] as? Int == width)
        }
        // Text and photos by mupdf (exact at one pixel a pixel); the seams of 8 boundaries (4 at a
        // strip cut in two) by mupdf and ghostscript at 72, 150 and 300 dpi against one image of the
        // page. (pdftoppm is held to that on the 50-capture page, `make bench`: on this shorter page,
        // /UserUnit 2, it draws device rows at some strip boundaries from the other strip at 150
        // and 300 dpi, as it did before strips were cut in two.)
        let check = try ProcessRunner.run("/usr/bin/env", ["python3", "\(CLI.root)/tools/check-photo-page.py", pdf, dir, "--readers", "mutool",
                                                           "--seams", "72,150,300", "--seam-readers", "mutool,gs", "--seam-limit", "8"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("text lines differing 0/"), "\(check.stdout)")
    }
}
