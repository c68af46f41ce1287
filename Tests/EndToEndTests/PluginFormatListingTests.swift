import Foundation
import Testing

/// A plugin's image formats are first-class: `encode format=NAME` picks one by name, `sumi formats`
/// (with `--plugin-path`), `sumi stages` and `sumi inspect` list them, a folder input takes files of
/// a plugin's format, and a plugin encoder is handed the side data `profile=`/`metadata=` leave.
/// The C plugins are compiled with `cc` into each test's own folder; ImageMagick reads the outputs.
@Suite struct PluginFormatListingTests {
    /// A plugin folder holding the farbfeld and ppm examples, and `extra` test-plugin builds (file
    /// name → defines).
    static func pluginFolder(in dir: String, extra: [String: [String]] = [:]) throws -> String {
        let plugins = dir + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        var builds = [("libfarbfeld.so", CLI.root + "/Examples/farbfeld-c/farbfeld.c", [String]()),
                      ("libppm.so", CLI.root + "/Examples/ppm-c/ppm.c", [])]
        for (name, defines) in extra.sorted(by: { $0.key < $1.key }) {
            builds.append((name, CLI.root + "/Tests/PluginTests/Fixtures/v2_test_plugin.c", defines))
        }
        for (name, source, defines) in builds {
            let built = CLI.tool("/usr/bin/cc", ["-shared", "-fPIC", "-O1", "-I", CLI.root + "/Sources/CSumiPlugin/include"]
                                 + defines.map { "-D" + $0 } + ["-o", plugins + "/" + name, source, "-lm"])
            try #require(built != nil, "cannot compile \(source)")
        }
        return plugins
    }

    /// A farbfeld file of `width`x`height` opaque pixels of one colour (16-bit big-endian RGBA).
    static func farbfeld(_ path: String, width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) throws {
        var bytes = Array("farbfeld".utf8)
        for value in [UInt32(width), UInt32(height)] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        for _ in 0..<(width * height) {
            for channel in [rgb.0, rgb.1, rgb.2, 255] { bytes += [channel, channel] }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func encodeFormatAcceptsAPluginFormatsName() throws {
        let dir = try CLI.temporaryFolder("format-name")
        let plugins = try Self.pluginFolder(in: dir)
        try #require(CLI.tool("/usr/bin/convert", ["-size", "5x3", "xc:#3366cc", dir + "/in.png"]) != nil)
        // The extension says nothing; format= names the plugin's format.
        let r = try CLI.run(["run", "-i", dir + "/in.png", "--plugin-path", plugins, "--json",
                             "decode ! encode path=\(dir)/out.bin format=ppm"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify(dir + "/out.bin").map { "\($0.format) \($0.width)x\($0.height)" } == "PPM 5x3")
        let pixel = CLI.tool("/usr/bin/convert", [dir + "/out.bin", "-format", "%[pixel:p{2,1}]", "info:"])
        #expect(pixel.map { String(decoding: $0, as: UTF8.self) } == "srgb(51,102,204)")
        let outputs = r.reports.first?["outputs"] as? [[String: Any]]
        #expect(outputs?.first?["format"] as? String == "ppm", "\(r.stdout)")
        // A name nobody offers is a parameter error listing the plugin's format with the built-in ones.
        let unknown = try CLI.run(["run", "-i", dir + "/in.png", "--plugin-path", plugins,
                                   "decode ! encode path=\(dir)/x.bin format=pnm"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown format \"pnm\"") && unknown.stderr.contains("avif, ppm"),
                "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.bin"))
    }

    @Test func formatsStagesAndInspectListPluginFormats() throws {
        let dir = try CLI.temporaryFolder("format-list")
        let plugins = try Self.pluginFolder(in: dir)
        let formats = try CLI.run(["formats", "--plugin-path", plugins])
        #expect(formats.status == 0, "\(formats.stderr)")
        let lines = formats.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let farbfeld = try #require(lines.first { $0.first == "farbfeld" }, "\(formats.stdout)")
        #expect(farbfeld == ["farbfeld", "yes", "no", ".ff", ".farbfeld", canonicalPath(plugins + "/libfarbfeld.so")])
        let ppm = try #require(lines.first { $0.first == "ppm" }, "\(formats.stdout)")
        #expect(ppm == ["ppm", "no", "yes", ".ppm", canonicalPath(plugins + "/libppm.so")])
        #expect(lines.contains { $0.first == "png" && $0.dropFirst().prefix(2) == ["yes", "yes"] }, "built-in rows stay")

        let json = try CLI.run(["formats", "--json", "--plugin-path", plugins])
        let rows = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        let row = try #require(rows.first { $0["format"] as? String == "farbfeld" })
        #expect(row["read"] as? Bool == true && row["write"] as? Bool == false)
        #expect(row["extensions"] as? [String] == ["ff", "farbfeld"] && row["origin"] as? String == canonicalPath(plugins + "/libfarbfeld.so"))
        let env = try CLI.run(["formats"], environment: ["SUMI_PLUGIN_PATH": plugins])
        #expect(env.stdout.contains("farbfeld"), "SUMI_PLUGIN_PATH is a configured folder too")
        let bad = try CLI.run(["formats", "--plugin-path"])
        #expect(bad.status == 2 && bad.stderr.contains("--plugin-path needs a folder"), "\(bad.stderr)")

        // farbfeld has no stage: `stages` lists its format all the same, with its library.
        let stages = try CLI.run(["stages", "--plugin-path", plugins])
        #expect(stages.stdout.contains("format farbfeld (decode, .ff, .farbfeld)  [farbfeld 1.0.0, \(canonicalPath(plugins + "/libfarbfeld.so"))]"),
                "\(stages.stdout)")
        let stagesJSON = try CLI.run(["stages", "--json", "--plugin-path", plugins])
        let entries = try #require(try JSONSerialization.jsonObject(with: stagesJSON.stdoutData) as? [[String: Any]])
        let entry = try #require(entries.first { $0["format"] as? String == "ppm" })
        #expect(entry["encode"] as? Bool == true && entry["decode"] as? Bool == false && entry["extensions"] as? [String] == ["ppm"])
        let inspect = try CLI.run(["inspect", "write-ppm", "--plugin-path", plugins])
        #expect(inspect.stdout.contains("  formats: ppm (encode, .ppm) — read and written by the built-in decode and encode"), "\(inspect.stdout)")
        let notAStage = try CLI.run(["inspect", "farbfeld", "--plugin-path", plugins])
        #expect(notAStage.status == 2 && notAStage.stderr.contains("\"farbfeld\" is an image format of the plugin"), "\(notAStage.stderr)")
    }

    @Test func aFolderInputTakesFilesOfAPluginsFormat() throws {
        let dir = try CLI.temporaryFolder("format-folder")
        let plugins = try Self.pluginFolder(in: dir)
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try Self.farbfeld(dir + "/in/a.ff", width: 4, height: 2, rgb: (255, 0, 0))
        try #require(CLI.tool("/usr/bin/convert", ["-size", "3x3", "xc:blue", dir + "/in/b.png"]) != nil)
        // The plugin's extension with other bytes is not an image of that format.
        try Data("not farbfeld at all".utf8).write(to: URL(fileURLWithPath: dir + "/in/c.ff"))
        let r = try CLI.run(["run", "-i", dir + "/in", "-o", dir + "/out/{stem}.png", "--plugin-path", plugins, "decode ! encode"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify(dir + "/out/a.png").map { "\($0.width)x\($0.height)" } == "4x2", "\(r.stderr)")
        let red = CLI.tool("/usr/bin/convert", [dir + "/out/a.png", "-format", "%[pixel:p{3,1}]", "info:"])
        #expect(red.map { String(decoding: $0, as: UTF8.self) } == "srgb(255,0,0)")
        #expect(CLI.identify(dir + "/out/b.png").map { "\($0.width)x\($0.height)" } == "3x3")
        #expect(r.stderr.contains("1 file is not an image (\(dir)/in/c.ff)"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/c.png"))
    }

    @Test func aPluginEncoderIsHandedTheSideDataProfileAndMetadataLeave() throws {
        let dir = try CLI.temporaryFolder("format-contract")
        let plugins = try Self.pluginFolder(in: dir, extra: ["libprobe-enc.so": ["TEST_ENCODER"]])
        let input = dir + "/in.jpg"
        try #require(CLI.tool("/usr/bin/convert", ["-size", "8x6", "xc:orange", input]) != nil)
        try #require(CLI.tool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Make=Acme", "-XMP-dc:Title=Probe",
                                                    "-ICC_Profile<=/usr/share/color/icc/compatibleWithAdobeRGB1998.icc", input]) != nil)
        func handed(_ options: String) throws -> [String: Int] {
            let out = dir + "/out-\(options.count).probeenc"
            let r = try CLI.run(["run", "-i", input, "--plugin-path", plugins, "decode ! encode path=\(out) \(options)"])
            #expect(r.status == 0, "\(r.stderr)")
            let text = try String(contentsOfFile: out, encoding: .utf8)
            var lengths: [String: Int] = [:]
            for pair in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                let parts = pair.split(separator: "=")
                if parts.count == 2 { lengths[String(parts[0])] = Int(parts[1]) }
            }
            return lengths
        }
        let kept = try handed("")
        #expect((kept["exif"] ?? 0) > 0 && (kept["xmp"] ?? 0) > 0 && (kept["icc-profile"] ?? 0) > 0, "\(kept)")
        let stripped = try handed("metadata=strip profile=strip")
        #expect(stripped == ["icc-profile": 0, "exif": 0, "xmp": 0], "\(stripped)")
        let srgb = try handed("profile=srgb metadata=strip")
        #expect((srgb["icc-profile"] ?? 0) > 0 && srgb["exif"] == 0, "\(srgb)")
        let warned = try CLI.run(["run", "-i", input, "--plugin-path", plugins,
                                  "decode ! encode path=\(dir)/q.probeenc quality=50"])
        #expect(warned.status == 0 && warned.stderr.contains("parameter \"quality\" does not apply to probe-enc output (a plugin's encoder); ignored"),
                "\(warned.stderr)")
    }
}

/// The canonical form of an existing path (the loader names libraries by it).
func canonicalPath(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
}
