import Foundation
import Testing

/// `pipelines/fullpage.json` through the CLI, checked with qpdf, pdfinfo and pdftocairo.
@Suite struct FullpagePipelineTests {
    let contentHeight = 2954.0

    func rect(_ report: [String: Any]) -> [Double]? {
        ((report["outputs"] as? [[String: Any]])?.first?["rectInCurrentPage"] as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue }
    }

    @Test func runsWithNoArgumentsAndOpensOnTheFirstCapture() throws {
        let dir = try CLI.temporaryFolder("fullpage-default")
        let r = try CLI.run(["run", CLI.root + "/pipelines/fullpage.json", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let pdf = dir + "/out/fullpage.pdf"
        #expect(CLI.tool("/usr/bin/qpdf", ["--check", pdf]) != nil, "qpdf --check failed")
        let info = String(decoding: try #require(CLI.tool("/usr/bin/pdfinfo", [pdf])), as: UTF8.self)
        // 2954 points: the CropBox, the page's rows (the MediaBox reaches 10 white rows further
        // down, which bring the last strip onto the 12-row grid).
        #expect(info.contains("390 x 2954 pts"), "\(info)")
        let report = try #require(r.reports.first)
        let output = try #require((report["outputs"] as? [[String: Any]])?.first)
        #expect(output["stage"] as? String == "page" && output["format"] as? String == "pdf")
        #expect(output["pages"] as? Int == 1 && output["currentPage"] as? Int == 0)
        #expect(output["width"] as? Double == 390 && output["height"] as? Double == contentHeight)
        #expect(rect(report) == [0, contentHeight - 0 - 844, 390, 844])

        // Rendered back at 1 px per point: the top of the page is the first capture down to its tab
        // bar (56 rows, kept once at the very bottom), the bottom is the last capture below its
        // header bar (64 rows, kept once at the very top).
        _ = CLI.tool("/usr/bin/pdftocairo", ["-cropbox", "-png", "-r", "72", "-singlefile", pdf, dir + "/render"])
        #expect(CLI.identify(dir + "/render.png").map { ($0.width, $0.height) } ?? (0, 0) == (390, 2954))
        let samples = CLI.root + "/pipelines/samples"
        _ = CLI.tool("/usr/bin/convert", [dir + "/render.png", "-crop", "390x788+0+0", "+repage", dir + "/top.png"])
        _ = CLI.tool("/usr/bin/convert", [samples + "/page-0.png", "-crop", "390x788+0+0", "+repage", dir + "/first.png"])
        _ = CLI.tool("/usr/bin/convert", [dir + "/render.png", "-crop", "390x780+0+2174", "+repage", dir + "/bottom.png"])
        _ = CLI.tool("/usr/bin/convert", [samples + "/page-4.png", "-crop", "390x780+0+64", "+repage", dir + "/last.png"])
        let top = try #require(Fixtures.psnr(dir + "/top.png", dir + "/first.png"))
        let bottom = try #require(Fixtures.psnr(dir + "/bottom.png", dir + "/last.png"))
        #expect(top > 45 && bottom > 45, "PSNR top \(top) bottom \(bottom)")
    }

    @Test(arguments: [(1.0, "capture:2", 1240.0), (2.0, "capture:0", 0.0), (0.5, "capture:4", 2110.0)])
    func viewportRectangleFollowsTheFormula(scale: Double, viewport: String, top: Double) throws {
        let dir = try CLI.temporaryFolder("fullpage-vp")
        let r = try CLI.run(["run", "pipelines/fullpage.json", "-o", dir + "/p.pdf", "--json",
                             "--set", "scale=\(scale)", "--set", "viewport=\(viewport)"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try #require(r.reports.first)
        let expected = [0, (contentHeight - top - 844) / scale, 390 / scale, 844 / scale]
        let got = try #require(rect(report))
        #expect(zip(got, expected).allSatisfy { abs($0 - $1) < 0.01 }, "\(got) vs \(expected)")
        #expect(CLI.tool("/usr/bin/qpdf", ["--check", dir + "/p.pdf"]) != nil)
    }

    @Test func badViewportLeavesNoPDF() throws {
        let dir = try CLI.temporaryFolder("fullpage-bad")
        for viewport in ["capture:9", "0,5000,390,844"] {
            let r = try CLI.run(["run", "pipelines/fullpage.json", "-o", dir + "/p.pdf", "--set", "viewport=\(viewport)"])
            #expect(r.status != 0 && r.stderr.contains("viewport"), "\(viewport): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/p.pdf"))
        }
    }
}
