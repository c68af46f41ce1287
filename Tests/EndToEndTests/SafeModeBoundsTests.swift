import Foundation
import Testing

/// `--safe` on the paths a manifest can still reach: font files, the path parameters of writer and
/// plugin stages, and limits given in the environment.
@Suite struct SafeModeBoundsTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// A `text` font file outside the inputs' folders is refused with one message whether it exists,
    /// is no font, or is missing; inside them, or as a family, it is used.
    @Test func fontFilesOnlyBelowTheInputFolders() throws {
        let dir = try CLI.temporaryFolder("safe-font")
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/in/photo.jpg")
        try FileManager.default.copyItem(atPath: Self.dejaVu, toPath: "\(dir)/in/mine.ttf")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/in/link.ttf", withDestinationPath: Self.dejaVu)
        func run(font: String, safe: Bool = true) throws -> CLI.Result {
            try CLI.run(["run", "pipelines/caption.json", "-i", "\(dir)/in/photo.jpg", "-o", "\(dir)/out/c.jpg",
                         "--set", "label.font=\(font)"] + (safe ? ["--safe"] : []))
        }
        var messages: [String] = []
        for font in [Self.dejaVu, "/etc/passwd", "/nonexistent/x.ttf", "\(dir)/in/link.ttf", "\(dir)/in/missing.ttf"] {
            let r = try run(font: font)
            #expect(r.status == 2, "\(font): \(r.stderr)")
            messages.append(r.stderr.replacingOccurrences(of: font, with: "FONT"))
        }
        #expect(Set(messages).count == 1, "\(messages)")
        #expect(messages[0].contains("stages[1] \"label\" (text): parameter \"font\": --safe: a file this parameter names must lie below the folders of the -i inputs; refused FONT"), "\(messages[0])")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out/c.jpg"))
        // Outside --safe the file is used as before.
        #expect(try run(font: Self.dejaVu, safe: false).status == 0)
        try FileManager.default.removeItem(atPath: "\(dir)/out/c.jpg")
        for font in ["\(dir)/in/mine.ttf", "DejaVu Sans:bold"] {
            let r = try run(font: font)
            #expect(r.status == 0, "\(font): \(r.stderr)")
            #expect(CLI.identify("\(dir)/out/c.jpg")?.width == 3000, "\(font)")
            try FileManager.default.removeItem(atPath: "\(dir)/out/c.jpg")
        }
    }

    /// A C plugin's path parameters are checked the way their descriptor declares ("access"), whatever
    /// they are called: a parameter named `target` declared "writes" is confined to the folder of -o,
    /// one declared "reads" to the inputs. A path parameter without a direction (a plugin built before
    /// directions) is checked both ways, so a file that is not both an input and below -o is refused.
    @Test func pluginPathsAreCheckedAsTheyAreDeclared() throws {
        let dir = try CLI.temporaryFolder("safe-plugin")
        for folder in ["in", "out", "plugins"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/\(folder)", withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/in/photo.jpg")
        try BatchSafetyTests.solid("red", at: "\(dir)/in/victim.png")
        try Self.pathPlugin.write(toFile: "\(dir)/plugin.c", atomically: true, encoding: .utf8)
        let built = try ProcessRunner.run("/usr/bin/cc", ["-shared", "-fPIC", "-I", CLI.root + "/Sources/CSumiPlugin/include",
                                                           "-o", "\(dir)/plugins/libpaths.so", "\(dir)/plugin.c"])
        try #require(built.status == 0, "\(built.stderr)")
        func run(_ stage: String) throws -> CLI.Result {
            try """
            {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
             "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}}, \(stage),
                        {"stage": "encode", "from": {"in": "photo"}, "with": {"path": "${output}"}}]}
            """.write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
            return try CLI.run(["run", "\(dir)/m.json", "--safe", "--plugin-path", "\(dir)/plugins", "-i", "\(dir)/in",
                                "-o", "\(dir)/out/", "--dry-run"])
        }
        let writes = "writes only below the folder of -o", reads = "reads only the files given with -i (or below a folder given)"
        let undeclared = " (its direction is not declared: checked as a read and a write)"
        // (stage, parameter, the folder refused and why, the folder allowed or nil)
        let cases: [(String, String, String, String, String?)] = [
            ("save-declared", "target", "in", writes, "out"),
            ("table-declared", "table", "out", reads, "in"),
            ("save-to", "target", "in", writes + undeclared, nil),
            ("save-to", "target", "out", reads + undeclared, nil),
            ("with-table", "table", "in", writes + undeclared, nil),
        ]
        for (stage, parameter, refusedFolder, why, allowedFolder) in cases {
            func step(_ folder: String) -> String {
                #"{"stage": "\#(stage)", "from": {"in": "photo"}, "with": {"\#(parameter)": "\#(dir)/\#(folder)/victim.png"}}"#
            }
            let refused = try run(step(refusedFolder))
            #expect(refused.status == 2, "\(stage): \(refused.stderr)")
            #expect(refused.stderr.contains("stages[1] (\(stage)): parameter \"\(parameter)\": --safe: \(why); refused \(dir)/\(refusedFolder)/victim.png"),
                    "\(refused.stderr)")
            if let allowedFolder {
                let allowed = try run(step(allowedFolder))
                #expect(allowed.status == 0, "\(stage): \(allowed.stderr)")
            }
        }
        #expect(BatchSafetyTests.firstPixel("\(dir)/in/victim.png") == "255,0,0")
    }

    /// The one-line form gives `${input}` to the file a source stage declares it reads and
    /// `${output}` to the file a file writer declares it writes, whatever they are called (`from`,
    /// `to`); a reading path of a sink is left alone.
    @Test func oneLinePipelinesFillTheDeclaredPaths() throws {
        let dir = try CLI.temporaryFolder("inline-declared")
        try FileManager.default.createDirectory(atPath: "\(dir)/plugins", withIntermediateDirectories: true)
        try Self.pathPlugin.write(toFile: "\(dir)/plugin.c", atomically: true, encoding: .utf8)
        let built = try ProcessRunner.run("/usr/bin/cc", ["-shared", "-fPIC", "-I", CLI.root + "/Sources/CSumiPlugin/include",
                                                           "-o", "\(dir)/plugins/libpaths.so", "\(dir)/plugin.c"])
        try #require(built.status == 0, "\(built.stderr)")
        let printed = try CLI.run(["run", "load-named level=2 ! save-named", "--plugin-path", "\(dir)/plugins", "--print-manifest"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: printed.stdoutData) as? [String: Any])
        let stages = try #require(json["stages"] as? [[String: Any]])
        let with = stages.map { $0["with"] as? [String: Any] ?? [:] }
        #expect(with.count == 2 && with[0]["from"] as? String == "${input}" && with[0]["level"] as? Int == 2, "\(printed.stdout)")
        #expect(with.count == 2 && with[1]["to"] as? String == "${output}" && with[1]["log"] == nil, "\(printed.stdout)")
        #expect(Set((json["params"] as? [String: Any] ?? [:]).keys) == ["input", "output"])
    }

    /// SUMI_SAFE_MEMORY_MB above the cap is the cap (it overflowed to 0 MB and stopped every run);
    /// SUMI_SAFE_SECONDS=1 never stops a run before a whole second has passed.
    /// The decode pixel cap holds for a one-line pipeline as for a manifest: a 7100x7100 image
    /// (50.4 MP) is refused before decoding either way.
    @Test func theDecodeCapHoldsForOneLinePipelines() throws {
        let dir = try CLI.temporaryFolder("safe-inline-cap")
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        let big = "\(dir)/big.png"
        #expect(CLI.tool("/usr/bin/convert", ["-size", "7100x7100", "xc:white", big]) != nil)
        let inline = try CLI.run(["run", "decode ! encode", "-i", big, "-o", "\(dir)/out/a.png", "--safe"])
        #expect(inline.status == 1 && inline.stderr.contains("max-pixels 50000000"), "\(inline.stderr)")
        let manifest = try CLI.run(["run", "pipelines/thumbnail.json", "-i", big, "-o", "\(dir)/out/b.jpg", "--safe"])
        #expect(manifest.status == 1 && manifest.stderr.contains("max-pixels 50000000"), "\(manifest.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").isEmpty)
        // Without --safe the default limit lets it through.
        #expect(try CLI.run(["run", "decode ! encode", "-i", big, "-o", "\(dir)/out/c.png"]).status == 0)
    }

    @Test func environmentLimitsAreCappedAndTimedPrecisely() throws {
        let dir = try CLI.temporaryFolder("safe-env")
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/photo.jpg")
        let big = try CLI.run(["run", "pipelines/thumbnail.json", "--safe", "-i", "\(dir)/photo.jpg", "-o", "\(dir)/t.jpg"],
                              environment: ["SUMI_SAFE_MEMORY_MB": "17592186044416"])
        #expect(big.status == 0, "\(big.stderr)")
        #expect(CLI.identify("\(dir)/t.jpg")?.width == 512)

        let inputs = try (0..<40).flatMap { i in
            try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/p\(i).jpg")
            return ["-i", "\(dir)/p\(i).jpg"]
        }
        // Whole seconds stopped a run anywhere from 0 to 1 s after it started: three runs all
        // lasting a second would be luck.
        for attempt in 0..<3 {
            try FileManager.default.createDirectory(atPath: "\(dir)/t\(attempt)", withIntermediateDirectories: true)
            let start = Date()
            let slow = try CLI.run(["run", "pipelines/thumbnail.json", "--safe", "--jobs", "1", "-o", "\(dir)/t\(attempt)/{stem}.png",
                                    "--set", "width=1500"] + inputs, environment: ["SUMI_SAFE_SECONDS": "1"])
            let elapsed = Date().timeIntervalSince(start)
            #expect(slow.status == 2 && slow.stderr.contains("longer than its limit of 1 s"), "\(slow.stderr)")
            #expect(elapsed >= 1.0, "stopped after \(elapsed) s")
        }
    }

    /// Two stages: `save-to` (image in, file out, a path parameter `target`) and `with-table` (image
    /// in and out, a path parameter `table`). Neither runs in these tests: --dry-run stops first.
    static let pathPlugin = #"""
    #include "sumi_plugin.h"
    static const char saver[] = "{\"name\": \"save-to\", \"summary\": \"Writes an image somewhere\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"file\","
        " \"params\": [{\"name\": \"target\", \"type\": \"path\", \"required\": true, \"summary\": \"where\"}]}";
    static const char table[] = "{\"name\": \"with-table\", \"summary\": \"Reads a table\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
        " \"params\": [{\"name\": \"table\", \"type\": \"path\", \"required\": true, \"summary\": \"a table\"}]}";
    static int32_t create(const sumi_stage *s, const sumi_params *p, void **instance, sumi_error *e) {
        (void)s; (void)p; (void)e; *instance = 0; return SUMI_OK;
    }
    static int32_t process(void *self, sumi_call *call, const sumi_value *const *in, uint32_t n, sumi_value **out, sumi_error *e) {
        (void)self; (void)call; (void)in; (void)n; (void)out;
        return sumi_error_set(e, SUMI_ERROR_PROCESS, 0, "not run in this test");
    }
    static void destroy(void *self) { (void)self; }
    static const char saver2[] = "{\"name\": \"save-declared\", \"summary\": \"Writes an image somewhere\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
        " \"params\": [{\"name\": \"target\", \"type\": \"path\", \"access\": \"writes\", \"required\": true, \"summary\": \"where\"}]}";
    static const char table2[] = "{\"name\": \"table-declared\", \"summary\": \"Reads a table\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\","
        " \"params\": [{\"name\": \"table\", \"type\": \"path\", \"access\": \"reads\", \"required\": true, \"summary\": \"a table\"}]}";
    static const char source[] = "{\"name\": \"load-named\", \"summary\": \"Reads an image\", \"output\": \"image\","
        " \"params\": [{\"name\": \"level\", \"type\": \"integer\", \"default\": 1, \"summary\": \"a number\"},"
        " {\"name\": \"from\", \"type\": \"path\", \"access\": \"reads\", \"required\": true, \"summary\": \"the file\"}]}";
    static const char sink[] = "{\"name\": \"save-named\", \"summary\": \"Writes an image\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"file\","
        " \"params\": [{\"name\": \"log\", \"type\": \"path\", \"access\": \"reads\", \"summary\": \"read, never filled\"},"
        " {\"name\": \"to\", \"type\": \"path\", \"access\": \"writes\", \"required\": true, \"summary\": \"the file\"}]}";
    static const sumi_stage stages[] = {
        { .size = sizeof(sumi_stage), .descriptor_json = saver, .create = create, .process = process, .destroy = destroy },
        { .size = sizeof(sumi_stage), .descriptor_json = table, .create = create, .process = process, .destroy = destroy },
        { .size = sizeof(sumi_stage), .descriptor_json = saver2, .create = create, .process = process, .destroy = destroy },
        { .size = sizeof(sumi_stage), .descriptor_json = table2, .create = create, .process = process, .destroy = destroy },
        { .size = sizeof(sumi_stage), .descriptor_json = source, .create = create, .process = process, .destroy = destroy },
        { .size = sizeof(sumi_stage), .descriptor_json = sink, .create = create, .process = process, .destroy = destroy },
    };
    static const sumi_plugin plugin = { .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
        .name = "paths", .version = "1.0.0", .stage_count = 6, .stages = stages };
    SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
        (void)host; *out = &plugin; return SUMI_OK;
    }
    """#
}

/// Every stage that makes pixels is held to the run's pixel limit, not only `decode`: a pipeline
/// without a decoder (`caption-label`) cannot draw a 400-megapixel layer.
@Suite struct PixelLimitCLITests {
    func label(_ sets: [String], safe: Bool, environment: [String: String] = [:]) throws -> (CLI.Result, String) {
        let dir = try CLI.temporaryFolder("pixel-limit")
        let output = "\(dir)/label.png"
        let r = try CLI.run(["run", "pipelines/caption-label.json", "-o", output, "--set", "text=A"]
                            + sets.flatMap { ["--set", $0] } + (safe ? ["--safe"] : []), environment: environment)
        return (r, output)
    }

    @Test func aPaddedLabelPastTheSafeLimitIsRefusedBeforeItIsDrawn() throws {
        // 20013x20026 at scale 1: 401 megapixels (0.3.0 drew it: 11 s, 1.6 GB).
        let (r, output) = try label(["padding=10000"], safe: true)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("(encode): drawing the 20013x20026 layer at scale 1 would make an image of 20013x20026 pixels (400.8 megapixels), more than this run allows: 50 megapixels"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func theLayerScaleCountsToo() throws {
        let (r, _) = try label(["padding=300", "scale=16"], safe: true)
        #expect(r.status == 1 && r.stderr.contains("layer at scale 16 would make an image of 9806x10016 pixels"), "\(r.stderr)")
    }

    @Test func withoutSafeTheStandardLimitHoldsAndTheEnvironmentMovesIt() throws {
        let (big, _) = try label(["padding=10000"], safe: false)
        #expect(big.status == 1 && big.stderr.contains("more than this run allows: 179 megapixels"), "\(big.stderr)")
        let (lowered, _) = try label(["padding=100"], safe: false, environment: ["SUMI_MAX_PIXELS": "10000"])
        #expect(lowered.status == 1 && lowered.stderr.contains("more than this run allows: 10000 pixels"), "\(lowered.stderr)")
        let (fits, output) = try label(["padding=100"], safe: false)
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
