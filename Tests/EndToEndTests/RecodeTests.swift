import Foundation
import Testing

/// decode → encode of a JPEG: the decoder streams rows to the encoder while it decodes.
@Suite struct RecodeTests {
    func manifest(in dir: String) throws -> String {
        let path = dir + "/recode.json"
        try #"""
        {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
         "stages": [{"id": "in", "stage": "decode", "with": {"path": "${input}"}},
                    {"id": "out", "stage": "encode", "with": {"path": "${output}", "quality": 90}}]}
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func streamedRecodeEqualsTheCodecFloor() throws {
        let dir = try CLI.temporaryFolder("recode")
        let r = try CLI.run(["run", try manifest(in: dir), "-i", Fixtures.photo, "-o", dir + "/s.jpg", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        // libjpeg-turbo on both sides, same settings: the same bytes as `djpeg | cjpeg -quality 90`.
        let decoded = try #require(CLI.tool("/usr/bin/djpeg", [Fixtures.photo]))
        try decoded.write(to: URL(fileURLWithPath: dir + "/p.ppm"))
        let floor = try #require(CLI.tool("/usr/bin/cjpeg", ["-quality", "90", dir + "/p.ppm"]))
        #expect(try Fixtures.bytes(dir + "/s.jpg") == [UInt8](floor))
        let stages = (r.reports.first?["stages"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(stages == ["in", "out"])
    }

    @Test func truncatedSourceFailsOnTheStrictDecoderAndWritesNothing() throws {
        let dir = try CLI.temporaryFolder("recode-bad")
        let photo = try Fixtures.bytes(Fixtures.photo)
        try Fixtures.write(Array(photo.prefix(photo.count / 2)), to: dir + "/half.jpg")
        let r = try CLI.run(["run", try manifest(in: dir), "-i", dir + "/half.jpg", "-o", dir + "/o.jpg", "--set", "in.strict=true"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("sumi: error: recode.json: stages[0] \"in\" (decode): "), "\(r.stderr)")
        #expect(r.stderr.contains("half.jpg"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.jpg"))
    }

    @Test func rotatedSourcesAndOtherFormatsStillWork() throws {
        let dir = try CLI.temporaryFolder("recode-other")
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-rotate", "90", dir + "/r.jpg"])
        try Fixtures.write(Fixtures.withOrientation(try Fixtures.bytes(dir + "/r.jpg"), 8), to: dir + "/o8.jpg")
        let rotated = try CLI.run(["run", try manifest(in: dir), "-i", dir + "/o8.jpg", "-o", dir + "/u.jpg"])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(CLI.identify(dir + "/u.jpg").map { [$0.width, $0.height] } == [3000, 2002])
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "300x", dir + "/small.png"])
        let png = try CLI.run(["run", try manifest(in: dir), "-i", dir + "/small.png", "-o", dir + "/small.jpg"])
        #expect(png.status == 0, "\(png.stderr)")
        #expect(CLI.identify(dir + "/small.jpg")?.width == 300)
    }
}
