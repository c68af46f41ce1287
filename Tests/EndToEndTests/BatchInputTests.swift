import Foundation
import Testing

/// Inputs as users give them (several after -i, positional, folders, @lists, globs), output templates,
/// --dry-run, and the bad inputs of each.
@Suite struct BatchInputTests {
    /// A folder with `count` small PNGs made by sumi itself from the sample photo.
    static func images(_ count: Int, in folder: String, prefix: String = "img") throws -> [String] {
        let first = "\(folder)/\(prefix)0.png"
        let r = try CLI.run(["run", "decode path=\(Fixtures.photo) ! scale width=48 ! encode path=\(first)"])
        #expect(r.status == 0, "\(r.stderr)")
        var paths = [first]
        for i in 1..<max(count, 1) {
            let path = "\(folder)/\(prefix)\(i).png"
            try FileManager.default.copyItem(atPath: first, toPath: path)
            paths.append(path)
        }
        return Array(paths.prefix(count))
    }

    @Test func severalPathsAfterOneInputAndPositional() throws {
        let dir = try CLI.temporaryFolder("multi")
        let inputs = try Self.images(3, in: dir)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i"] + inputs.prefix(2) + ["-o", "\(dir)/out/{stem}.{ext}", "--set", "width=16", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.reports.count == 2)
        #expect(CLI.identify("\(dir)/out/img0.png").map { $0.width } == 16)
        #expect(CLI.identify("\(dir)/out/img1.png").map { $0.format } == "PNG")
        let positional = try CLI.run(["run", "pipelines/thumbnail.json", inputs[2], inputs[0], "-o", "\(dir)/pos/{n}-{name}", "--set", "width=8"])
        #expect(positional.status == 0, "\(positional.stderr)")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/pos/1-img2.png"))
        #expect(CLI.identify("\(dir)/pos/2-img0.png")?.width == 8)
        // The help's PNG example: "quality" is the manifest's, not the user's, so no warning.
        #expect(!positional.stderr.contains("does not apply"), "\(positional.stderr)")
    }

    @Test func folderRecursiveMirrorsTheTreeAndSkipsNonImages() throws {
        let dir = try CLI.temporaryFolder("folder")
        try FileManager.default.createDirectory(atPath: "\(dir)/in/sub/deeper", withIntermediateDirectories: true)
        _ = try Self.images(2, in: "\(dir)/in")
        _ = try Self.images(1, in: "\(dir)/in/sub/deeper", prefix: "deep")
        try "not an image".write(toFile: "\(dir)/in/notes.txt", atomically: true, encoding: .utf8)
        try "fake".write(toFile: "\(dir)/in/sub/fake.jpg", atomically: true, encoding: .utf8)
        let flat = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "-o", "\(dir)/flat/", "--dry-run"])
        #expect(flat.status == 0, "\(flat.stderr)")
        #expect(flat.stdout.split(separator: "\n").filter { $0.contains(" -> ") }.count == 2)
        #expect(flat.stderr.contains("notes.txt") && flat.stderr.contains("warning"))
        let deep = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "-r", "-o", "\(dir)/tree/{dir}/{stem}.png", "--set", "width=10"])
        #expect(deep.status == 0, "\(deep.stderr)")
        #expect(CLI.identify("\(dir)/tree/sub/deeper/deep0.png")?.width == 10)
        #expect(CLI.identify("\(dir)/tree/img1.png")?.width == 10)
        #expect(deep.stderr.contains("fake.jpg"), "a .jpg that is not a JPEG is skipped with a warning")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/tree/sub/fake.png"))
        let strict = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/in", "--strict", "-o", "\(dir)/s/"])
        #expect(strict.status == 2)
        #expect(strict.stderr.hasPrefix("sumi: error: ") && strict.stderr.contains("notes.txt") && strict.stderr.contains("not an image"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/s"))
    }

    @Test func listsFromAFileAndFromStandardInput() throws {
        let dir = try CLI.temporaryFolder("list")
        let inputs = try Self.images(3, in: dir)
        try (["# thumbnails", inputs[0], "", inputs[2]].joined(separator: "\n") + "\n").write(toFile: "\(dir)/list.txt", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "@\(dir)/list.txt", "-o", "\(dir)/a/{stem}.png", "--dry-run", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.reports.compactMap { $0["input"] as? String } == [inputs[0], inputs[2]])
        #expect(r.reports.compactMap { $0["output"] as? String } == ["\(dir)/a/img0.png", "\(dir)/a/img2.png"])
        let piped = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "@-", "-o", "\(dir)/b/{stem}.png", "--set", "width=12"],
                                stdin: Data((inputs[1] + "\n").utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(CLI.identify("\(dir)/b/img1.png")?.width == 12)
    }

    @Test func listWithMissingFilesStopsBeforeRunning() throws {
        let dir = try CLI.temporaryFolder("badlist")
        let inputs = try Self.images(1, in: dir)
        try "\(inputs[0])\n\(dir)/missing.png\n".write(toFile: "\(dir)/list.txt", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "@\(dir)/list.txt", "-o", "\(dir)/o/{stem}.png"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("line 2") && r.stderr.contains("missing.png"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o/img0.png"))
    }

    @Test func globMatchingNothingIsAUsageError() throws {
        let dir = try CLI.temporaryFolder("glob")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/*.jpg", "-o", "\(dir)/{stem}.png"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("matches no file"), "\(r.stderr)")
        _ = try Self.images(2, in: dir)
        let matched = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/img*.png", "-o", "\(dir)/g/{stem}.png", "--dry-run"])
        #expect(matched.status == 0 && matched.stdout.contains("img1.png"), "\(matched.stderr)")
    }

    @Test func twoInputsMappingToOneOutputAreRefused() throws {
        let dir = try CLI.temporaryFolder("clash")
        try FileManager.default.createDirectory(atPath: "\(dir)/a", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/b", withIntermediateDirectories: true)
        let a = try Self.images(1, in: "\(dir)/a"), b = try Self.images(1, in: "\(dir)/b")
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", a[0], b[0], "-o", "\(dir)/out/{stem}.png"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("for both") && r.stderr.contains("{n}"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out"))
        let plain = try CLI.run(["run", "pipelines/thumbnail.json", "-i", a[0], b[0], "-o", "\(dir)/one.png"])
        #expect(plain.status == 2 && plain.stderr.contains("template"))
        let unknown = try CLI.run(["run", "pipelines/thumbnail.json", "-i", a[0], b[0], "-o", "\(dir)/{stme}.png"])
        #expect(unknown.status == 2 && unknown.stderr.contains("did you mean \"stem\""), "\(unknown.stderr)")
    }

    @Test func templatesInManifestDefaults() throws {
        let dir = try CLI.temporaryFolder("defaults")
        let inputs = try Self.images(2, in: dir)
        let manifest = "\(dir)/t.json"
        try """
        {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path", "default": "\(dir)/made/{stem}.webp"}},
         "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "flip"}, {"stage": "encode", "with": {"path": "${output}"}}]}
        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", manifest, "-i"] + inputs)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify("\(dir)/made/img0.webp")?.format == "WEBP")
        #expect(CLI.identify("\(dir)/made/img1.webp") != nil)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/made/{stem}.webp"))
    }

    @Test func dryRunDecodesNothingAndWritesNothing() throws {
        let dir = try CLI.temporaryFolder("dry")
        // Not an image at all: a real run would fail to decode it.
        try "text".write(toFile: "\(dir)/x.png", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/x.png", "-o", "\(dir)/o/{stem}.jpg", "--dry-run"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\(dir)/x.png -> \(dir)/o/x.jpg"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/o"))
        let invalid = try CLI.run(["run", "pipelines/thumbnail.json", "-i", "\(dir)/x.png", "--set", "width=0", "--dry-run"])
        #expect(invalid.status == 2, "a dry run still validates")
    }
}
