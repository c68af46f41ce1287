import Foundation
import Testing

/// ABI version 2 plugins through the command line: a format decoder found by magic bytes behind the
/// built-in `decode`, an encoder behind `encode` by extension, a writer stage, a plugin that claims a
/// built-in format's magic (the built-in wins, with a warning), and a list reducer. Outputs are
/// checked with ImageMagick, an independent PPM/farbfeld reader. `make examples` builds the plugins.
@Suite struct FormatPluginCLITests {
    static let folder = CLI.root + "/.build/plugins"

    func requirePlugins() throws {
        for lib in ["libfarbfeld.so", "libppm.so", "libcontact-sheet.so", "libinvert-rust.so"] {
            try #require(FileManager.default.fileExists(atPath: "\(Self.folder)/\(lib)"), "run `make examples` first: \(lib) is missing")
        }
    }

    /// A 6x4 gradient with a translucent column, drawn by ImageMagick as a PNG and as farbfeld (the
    /// farbfeld header, then ImageMagick's own 16-bit big-endian RGBA samples).
    func sample(in dir: String) throws -> (png: String, ff: String) {
        let png = dir + "/sample.png", ff = dir + "/sample.ff"
        try #require(CLI.tool("/usr/bin/convert", ["-size", "4x6", "gradient:red-blue", "-rotate", "90",
                                                   "-alpha", "set", "-region", "1x4+5+0", "-channel", "A", "-evaluate", "set", "50%",
                                                   "+region", "-depth", "8", png]) != nil)
        let samples = try #require(CLI.tool("/usr/bin/convert", [png, "-depth", "16", "-endian", "MSB", "rgba:-"]))
        #expect(samples.count == 6 * 4 * 8)
        var header = Data("farbfeld".utf8)
        header += Data([0, 0, 0, 6, 0, 0, 0, 4])
        try (header + samples).write(to: URL(fileURLWithPath: ff))
        return (png, ff)
    }

    @Test func builtInDecodeReadsAPluginFormatByMagicBytes() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("farbfeld")
        let (png, ff) = try sample(in: dir)
        // The extension says nothing: the magic bytes do.
        try FileManager.default.moveItem(atPath: ff, toPath: dir + "/sample.bin")
        let r = try CLI.run(["run", "-i", dir + "/sample.bin", "-o", dir + "/out.png", "--plugin-path", Self.folder,
                             "decode ! encode"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify(dir + "/out.png").map { "\($0.width)x\($0.height)" } == "6x4")
        // The same pixels as ImageMagick's PNG (translucent ones within a premultiplication round trip).
        let ae = CLI.tool("/usr/bin/compare", ["-fuzz", "1%", "-metric", "AE", png, dir + "/out.png", "null:"])
        #expect(ae != nil, "ImageMagick finds the decoded image differs from the source")
        let without = try CLI.run(["run", "-i", dir + "/sample.bin", "-o", dir + "/none.png", "decode ! encode"])
        #expect(without.status != 0 && without.stderr.contains("not a supported image"), "\(without.stderr)")
    }

    @Test func builtInEncodeAndAWriterStageWritePPM() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("ppm")
        let (png, _) = try sample(in: dir)
        let r = try CLI.run(["run", "-i", png, "-o", dir + "/encoded.ppm", "--plugin-path", Self.folder, "decode ! encode"])
        #expect(r.status == 0, "\(r.stderr)")
        let w = try CLI.run(["run", "-i", png, "--plugin-path", Self.folder, "--json",
                             "decode ! write-ppm path=\(dir)/written.ppm background=black"])
        #expect(w.status == 0, "\(w.stderr)")
        #expect(CLI.identify(dir + "/encoded.ppm").map { "\($0.format) \($0.width)x\($0.height)" } == "PPM 6x4")
        // ImageMagick flattens the source onto the same backgrounds: no pixel may differ.
        for (file, background) in [("encoded.ppm", "white"), ("written.ppm", "black")] {
            let flat = dir + "/flat-\(background).ppm"
            try #require(CLI.tool("/usr/bin/convert", [png, "-background", background, "-flatten", flat]) != nil)
            let ae = CLI.tool("/usr/bin/compare", ["-metric", "AE", flat, dir + "/" + file, "null:"])
            #expect(ae != nil, "\(file) differs from ImageMagick's flattening onto \(background)")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/written.ppm"))
        #expect(bytes.starts(with: Array("P6\n6 4\n255\n".utf8)) && bytes.count == 11 + 6 * 4 * 3)
        let report = try #require(w.reports.first)
        let outputs = report["outputs"] as? [[String: Any]]
        #expect(outputs?.first?["format"] as? String == "ppm" && outputs?.first?["bytes"] as? Int == bytes.count, "\(report)")
    }

    @Test func aPluginClaimingPNGMagicLosesToTheBuiltInWithAWarning() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("claim")
        let plugins = dir + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let built = CLI.tool("/usr/bin/cc", ["-shared", "-fPIC", "-O1", "-I", CLI.root + "/Sources/CSumiPlugin/include",
                                             "-DTEST_CLAIM_PNG", "-o", plugins + "/libclaim.so",
                                             CLI.root + "/Tests/PluginTests/Fixtures/v2_test_plugin.c", "-lm"])
        try #require(built != nil)
        let (png, _) = try sample(in: dir)
        let r = try CLI.run(["run", "-i", png, "-o", dir + "/out.png", "--plugin-path", plugins, "decode ! encode"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("format \"not-png\" claims the magic bytes of the built-in PNG format, which decodes them"), "\(r.stderr)")
        #expect(CLI.tool("/usr/bin/compare", ["-metric", "AE", png, dir + "/out.png", "null:"]) != nil)
    }

    @Test func contactSheetOfADecodedList() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("sheet")
        for (name, colour) in [("a", "red"), ("b", "lime"), ("c", "blue")] {
            try #require(CLI.tool("/usr/bin/convert", ["-size", "30x20", "xc:\(colour)", "\(dir)/\(name).png"]) != nil)
        }
        let manifest = """
        {"sumi": 1, "stages": [
          {"stage": "decode", "with": {"path": ["\(dir)/a.png", "\(dir)/b.png", "\(dir)/c.png"]}},
          {"stage": "contact-sheet", "with": {"columns": 3, "cell": "30x30", "gap": 0, "background": "#000000"}},
          {"stage": "encode", "with": {"path": "\(dir)/sheet.png"}}]}
        """
        try manifest.write(toFile: dir + "/sheet.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", dir + "/sheet.json", "--plugin-path", Self.folder])
        #expect(r.status == 0, "\(r.stderr)")
        let colours = CLI.tool("/usr/bin/convert", [dir + "/sheet.png", "-format",
                                                    "%[pixel:p{15,15}] %[pixel:p{45,15}] %[pixel:p{75,15}] %[pixel:p{15,2}] %w %h", "info:"])
        #expect(colours.map { String(decoding: $0, as: UTF8.self) } == "srgb(255,0,0) srgb(0,255,0) srgb(0,0,255) srgb(0,0,0) 90 30")
        // The plugin table's name, version, licence and description reach `inspect` and `stages --json`.
        let inspect = try CLI.run(["inspect", "contact-sheet", "--plugin-path", Self.folder])
        #expect(inspect.stdout.contains("  plugin:  contact-sheet 1.0.0 (licence MIT, plugin ABI 2) — A grid of thumbnails from a list of images"),
                "\(inspect.stdout)")
        let stages = try CLI.run(["stages", "--json", "--plugin-path", Self.folder])
        let list = try #require(try JSONSerialization.jsonObject(with: stages.stdoutData) as? [[String: Any]])
        let plugin = list.first { $0["name"] as? String == "contact-sheet" }?["plugin"] as? [String: Any]
        #expect(plugin?["licence"] as? String == "MIT" && plugin?["abi"] as? Int == 2, "\(plugin ?? [:])")
    }

    @Test func aPluginWrittenInRustRunsLikeAnyOther() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("rust")
        try #require(CLI.tool("/usr/bin/convert", ["-size", "16x8", "gradient:orange-navy", "-depth", "8", dir + "/in.png"]) != nil)
        let r = try CLI.run(["run", "-i", dir + "/in.png", "-o", dir + "/out.png", "--plugin-path", Self.folder,
                             "decode ! invert-rust ! encode"])
        #expect(r.status == 0, "\(r.stderr)")
        try #require(CLI.tool("/usr/bin/convert", [dir + "/in.png", "-negate", dir + "/negated.png"]) != nil)
        #expect(CLI.tool("/usr/bin/compare", ["-metric", "AE", dir + "/negated.png", dir + "/out.png", "null:"]) != nil,
                "the Rust plugin's inversion differs from ImageMagick's -negate")
        let listing = try CLI.run(["stages", "--plugin-path", Self.folder])
        #expect(listing.stdout.contains("invert-rust") && listing.stdout.contains("invert-rust 1.0.0"), "\(listing.stdout)")
    }
}
