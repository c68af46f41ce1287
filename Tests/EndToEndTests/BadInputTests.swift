import Foundation
import Testing

/// Hostile and broken inputs through the CLI: a clear error naming the place, the right exit code,
/// no crash, and no output file created or damaged.
@Suite struct BadInputTests {
    /// The thumbnail of `input`; `strict`: a damaged JPEG is refused (`decode strict=true`), as
    /// every broken file is here, rather than decoded with a warning.
    func run(input: String, output: String, strict: Bool = true) throws -> CLI.Result {
        try CLI.run(["run", "pipelines/thumbnail.json", "-i", input, "-o", output, "--set", "width=64"]
                    + (strict ? ["--set", "photo.strict=true"] : []))
    }

    @Test func brokenImagesFailCleanly() throws {
        let dir = try CLI.temporaryFolder("bad")
        let photo = try Fixtures.bytes(Fixtures.photo)
        let cases: [(String, [UInt8], String)] = [
            ("third.jpg", Array(photo.prefix(photo.count / 3)), "truncated"),
            ("noise.jpg", Array(photo.prefix(2000)) + [UInt8](repeating: 0xFF, count: 5000) + Array(photo.suffix(2000)), "third"),
            ("text.png", Array("this is not an image\n".utf8), "not"),
            ("empty.png", [], "empty"),
            ("huge.png", Fixtures.hugePNGHeader(width: 100_000, height: 100_000), "100000"),
        ]
        for (name, bytes, _) in cases {
            try Fixtures.write(bytes, to: "\(dir)/\(name)")
            let out = "\(dir)/out-\(name).png"
            let r = try run(input: "\(dir)/\(name)", output: out)
            #expect(r.status == 1, "\(name): status \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("sumi: error: thumbnail.json: stages[0] \"photo\" (decode): "), "\(name): \(r.stderr)")
            #expect(r.stderr.contains(name), "\(name): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(name) left an output")
        }
        let huge = try run(input: "\(dir)/huge.png", output: "\(dir)/h.png")
        #expect(huge.stderr.contains("100000"), "\(huge.stderr)")
        // Not strict, the truncated JPEG is decoded as libjpeg reads it, with a warning naming it.
        let lenient = try run(input: "\(dir)/third.jpg", output: "\(dir)/third.png", strict: false)
        #expect(lenient.status == 0 && lenient.stderr.contains("sumi: warning: ") && lenient.stderr.contains("third.jpg: damaged JPEG data"),
                "\(lenient.stderr)")
        #expect(CLI.identify("\(dir)/third.png")?.width == 64)
    }

    @Test func missingInput() throws {
        let dir = try CLI.temporaryFolder("missing-input")
        let r = try run(input: "/nonexistent/photo.jpg", output: dir + "/never.png")
        #expect(!FileManager.default.fileExists(atPath: dir + "/never.png"))
        #expect(r.status == 1 && r.stderr.contains("/nonexistent/photo.jpg") && r.stderr.contains("No such file"))
    }

    @Test func unwritableOutputLeavesNothing() throws {
        let r = try run(input: Fixtures.photo, output: "/etc/hostname/inside/t.png")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("t.png"))
    }

    @Test func failedRunDoesNotTouchAnExistingOutput() throws {
        let dir = try CLI.temporaryFolder("keep")
        let out = "\(dir)/t.png"
        try Fixtures.write([1, 2, 3, 4], to: out)
        try Fixtures.write(Array(try Fixtures.bytes(Fixtures.photo).prefix(5000)), to: "\(dir)/cut.jpg")
        let r = try run(input: "\(dir)/cut.jpg", output: out)
        #expect(r.status == 1)
        #expect(try Fixtures.bytes(out) == [1, 2, 3, 4])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(leftovers == ["cut.jpg", "t.png"])
    }

    @Test func aSuccessfulRunLeavesTheInputAlone() throws {
        let dir = try CLI.temporaryFolder("same")
        let input = "\(dir)/p.jpg"
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: input)
        let before = try Fixtures.bytes(input)
        let r = try run(input: input, output: "\(dir)/t.jpg")
        #expect(r.status == 0)
        #expect(try Fixtures.bytes(input) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["p.jpg", "t.jpg"])
    }
}
