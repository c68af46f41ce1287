import Foundation
import Testing

/// The full-page job on the drawn photo-rich page (`tools/make-photo-page.py`, fixed seed): its first
/// 16 captures hold full-width photos, a shop grid and a photo beside a column of text. What `auto`
/// decided is checked from outside by `tools/check-photo-page.py` (qpdf, mupdf against the page
/// rebuilt from the captures): every line of text identical, no text box under a JPEG image, every
/// photo 40 dB or more; and the run report shows JPEG strips and a JPEG tile narrower than the page.
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
        // Tiles of one strip cover its columns exactly, side by side.
        for top in Set(strips.compactMap { $0["top"] as? Int }) {
            let row = strips.filter { $0["top"] as? Int == top }.sorted { ($0["left"] as? Int ?? 0) < ($1["left"] as? Int ?? 0) }
            var x = 0
            for tile in row {
                #expect(tile["left"] as? Int == x, "strip at \(top): \(row)")
                x += tile["columns"] as? Int ?? 0
            }
            #expect(x == width, "strip at \(top): \(row)")
        }
        let check = try ProcessRunner.run("/usr/bin/env", ["python3", "\(CLI.root)/tools/check-photo-page.py", pdf, dir, "--readers", "mutool"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("text lines differing 0/"), "\(check.stdout)")
    }
}
