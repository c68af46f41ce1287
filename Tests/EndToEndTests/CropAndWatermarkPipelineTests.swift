import Foundation
import Testing

/// `pipelines/watermark.json`, `thumbnail.json`'s `fit`/`crop` and `trim`'s report, through the CLI
/// as a user runs them: outputs measured with ImageMagick, bad values refused with exit 2 naming the
/// stage and the parameter.
@Suite struct CropAndWatermarkPipelineTests {
    @Test func watermarkRunsAndMarksOnlyItsCorner() throws {
        let dir = try CLI.temporaryFolder("watermark")
        let marked = try CLI.run(["run", CLI.root + "/pipelines/watermark.json", "-o", dir + "/marked.png", "--json"])
        #expect(marked.status == 0, "\(marked.stderr)")
        let info = try #require(CLI.identify(dir + "/marked.png"))
        #expect(info.width == 3000 && info.height == 2002)
        let stages = (marked.reports.first?["stages"] as? [[String: Any]])?.compactMap { $0["stage"] as? String }
        #expect(stages == ["decode", "decode", "place", "blend", "encode"])
        // The 360x120 mark sits 40 pixels in from the bottom-right corner; elsewhere the photo is untouched.
        let plain = CLI.root + "/pipelines/samples/photo.jpg"
        for (name, geometry, marked) in [("corner", "360x120+2600+1842", true), ("top-left", "600x400+0+0", false)] {
            _ = CLI.tool("/usr/bin/convert", [dir + "/marked.png", "-crop", geometry, "+repage", "\(dir)/m-\(name).png"])
            _ = CLI.tool("/usr/bin/convert", [plain, "-crop", geometry, "+repage", "\(dir)/p-\(name).png"])
            let psnr = try #require(Fixtures.psnr("\(dir)/m-\(name).png", "\(dir)/p-\(name).png"))
            #expect(marked ? psnr < 25 : psnr > 40, "\(name): PSNR \(psnr) dB against the unmarked photo")
        }
        let tiled = try CLI.run(["run", CLI.root + "/pipelines/watermark.json", "-o", dir + "/tiled.png", "--set", "tile=true", "--set", "opacity=0.3"])
        #expect(tiled.status == 0, "\(tiled.stderr)")
        _ = CLI.tool("/usr/bin/convert", [dir + "/tiled.png", "-crop", "600x400+0+0", "+repage", "\(dir)/t-top-left.png"])
        let psnr = try #require(Fixtures.psnr("\(dir)/t-top-left.png", "\(dir)/p-top-left.png"))
        #expect(psnr < 40, "a tiled mark reaches the top-left corner too: PSNR \(psnr) dB")
    }

    @Test func badValuesAreUsageErrorsNamingStageAndParameter() throws {
        let dir = try CLI.temporaryFolder("crop-bad")
        for (setting, stage, parameter) in [("gravity=middle", "place", "anchor"), ("opacity=2", "place", "opacity")] {
            let r = try CLI.run(["run", CLI.root + "/pipelines/watermark.json", "-o", dir + "/w.jpg", "--set", setting])
            #expect(r.status == 2 && r.stderr.contains("(\(stage))") && r.stderr.contains("\"\(parameter)\""), "\(setting): \(r.stderr)")
        }
        // The manifest's own typed parameter refuses a non-boolean before any stage sees it.
        let tile = try CLI.run(["run", CLI.root + "/pipelines/watermark.json", "-o", dir + "/w.jpg", "--set", "tile=sometimes"])
        #expect(tile.status == 2 && tile.stderr.contains("parameter \"tile\""), "\(tile.stderr)")
        let crop = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "-o", dir + "/t.jpg", "--set", "fit=cover", "--set", "crop=faces"])
        #expect(crop.status == 2 && crop.stderr.contains("(scale)") && crop.stderr.contains("\"gravity\"") && crop.stderr.contains("attention"), "\(crop.stderr)")
        let trim = try CLI.run(["run", "decode path=\(CLI.root)/pipelines/samples/watermark.png ! trim tolerance=300 ! encode path=\(dir)/t.png"])
        #expect(trim.status == 2 && trim.stderr.contains("(trim)") && trim.stderr.contains("\"tolerance\""), "\(trim.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/w.jpg") && !FileManager.default.fileExists(atPath: dir + "/t.png"))
    }

    @Test func thumbnailCoverCropsToTheBoxAndDefaultsAreUnchanged() throws {
        let dir = try CLI.temporaryFolder("thumb-cover")
        for crop in ["center", "attention", "entropy"] {
            let r = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "-o", "\(dir)/\(crop).png",
                                 "--set", "width=200", "--set", "height=200", "--set", "fit=cover", "--set", "crop=\(crop)"])
            #expect(r.status == 0, "\(r.stderr)")
            let info = try #require(CLI.identify("\(dir)/\(crop).png"))
            #expect(info.width == 200 && info.height == 200, "\(crop)")
        }
        // Without fit and crop the thumbnail is the width-only one of before: 512x342.
        let plain = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "-o", "\(dir)/plain.jpg"])
        #expect(plain.status == 0)
        #expect(CLI.identify("\(dir)/plain.jpg").map { $0.width == 512 && $0.height == 342 } == true)
    }

    @Test func trimReportsTheBoxItKept() throws {
        let dir = try CLI.temporaryFolder("trim")
        // The 360x120 watermark on a 30-pixel white margin: trim keeps the mark (its transparent
        // rounded corners differ from white, so the box is the whole mark).
        let r = try CLI.run(["run", "decode path=\(CLI.root)/pipelines/samples/watermark.png ! pad margin=30 color=white ! trim ! encode path=\(dir)/t.png", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let trim = try #require((r.reports.first?["stages"] as? [[String: Any]])?.first { $0["stage"] as? String == "trim" })
        let details = try #require(trim["details"] as? [String: Any])
        #expect(details["x"] as? Int == 30 && details["y"] as? Int == 30 && details["width"] as? Int == 360 && details["height"] as? Int == 120,
                "\(details)")
        #expect(CLI.identify("\(dir)/t.png").map { $0.width == 360 && $0.height == 120 } == true)
    }
}
