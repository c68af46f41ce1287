import Foundation
import Testing

/// `pipelines/thumbnail.json` through the CLI, as a user runs it.
@Suite struct ThumbnailPipelineTests {
    @Test func runsWithNoArgumentsOnTheSample() throws {
        let dir = try CLI.temporaryFolder("thumb-default")
        let r = try CLI.run(["run", CLI.root + "/pipelines/thumbnail.json", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try #require(CLI.identify(dir + "/out/thumbnail.jpg"))
        #expect(info.format == "JPEG" && info.width == 512 && info.height == 342)
        let report = try #require(r.reports.first)
        #expect(report["pipeline"] as? String == "thumbnail" && report["ok"] as? Bool == true)
        let output = try #require((report["outputs"] as? [[String: Any]])?.first)
        #expect(output["width"] as? Int == 512 && output["height"] as? Int == 342 && output["format"] as? String == "jpeg")
        #expect(output["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: dir + "/out/thumbnail.jpg")[.size] as? Int))
        let stages = (report["stages"] as? [[String: Any]])?.compactMap { $0["stage"] as? String }
        #expect(stages == ["decode", "scale", "encode"])
    }

    @Test func matchesImageMagicksResize() throws {
        let dir = try CLI.temporaryFolder("thumb-png")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", Fixtures.photo, "-o", dir + "/t.png", "--set", "width=300"])
        #expect(r.status == 0, "\(r.stderr)")
        let info = try #require(CLI.identify(dir + "/t.png"))
        #expect(info.format == "PNG" && info.width == 300 && info.height == 200)
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-filter", "Lanczos", "-resize", "300x200!", dir + "/ref.png"])
        let psnr = try #require(Fixtures.psnr(dir + "/t.png", dir + "/ref.png"))
        #expect(psnr > 32, "PSNR \(psnr) dB against ImageMagick's Lanczos resize")
        // The manifest's quality does not apply to PNG; the user did not set it, so no warning (issue 14).
        #expect(!r.stderr.contains("quality"), "\(r.stderr)")
    }

    @Test func batchRunsEachInputAndSurvivesAFailure() throws {
        let dir = try CLI.temporaryFolder("thumb-batch")
        let copies = (0..<3).map { "\(dir)/p\($0).jpg" }
        for c in copies { try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: c) }
        try Fixtures.write(Array(try Fixtures.bytes(Fixtures.photo).prefix(20000)), to: "\(dir)/cut.jpg")
        let r = try CLI.run(["run", "pipelines/thumbnail.json"] + (copies + ["\(dir)/cut.jpg"]).flatMap { ["-i", $0] }
                            + ["-o", "\(dir)/thumbs/{stem}.png", "--set", "width=64", "--set", "photo.strict=true", "--jobs", "2",
                               "--json", "--quiet"])
        #expect(r.status == 1)
        for n in 0..<3 { #expect(CLI.identify("\(dir)/thumbs/p\(n).png")?.width == 64) }
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/thumbs/cut.png"))
        let reports = r.reports
        #expect(reports.count == 4)
        #expect(reports.filter { $0["ok"] as? Bool == true }.count == 3)
        let failed = try #require(reports.first { $0["ok"] as? Bool == false })
        #expect((failed["error"] as? String)?.contains("cut.jpg") == true)
        #expect(r.stderr.contains("sumi: error:") && r.stderr.contains("cut.jpg"))
    }

    @Test func batchNeedsAnOutputTemplate() throws {
        let dir = try CLI.temporaryFolder("one-file")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", Fixtures.photo, "-i", Fixtures.photo, "-o", dir + "/one-file.jpg"])
        #expect(r.status == 2 && r.stderr.contains("{stem}"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/one-file.jpg"))
    }

    @Test func writesStandardOutputInTheSourceFormatWithTheReportOnStderr() throws {
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-o", "-", "--set", "width=100", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Array(r.stdoutData.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stderr.utf8)) as? [String: Any])
        let output = try #require((report["outputs"] as? [[String: Any]])?.first)
        #expect(output["path"] as? String == "-" && output["format"] as? String == "jpeg")
        #expect(output["bytes"] as? Int == r.stdoutData.count)
    }

    @Test func readsStandardInput() throws {
        let dir = try CLI.temporaryFolder("thumb-stdin")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "-", "-o", dir + "/s.jpg", "--set", "width=100"],
                            stdin: Data(try Fixtures.bytes(Fixtures.photo)))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify(dir + "/s.jpg")?.width == 100)
    }
}
