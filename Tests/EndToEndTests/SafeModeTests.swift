import Foundation
import Glibc
import Testing

/// Untrusted manifests: `validate` never runs a manifest's code, manifest plugins outside the
/// configured folders need `--allow-manifest-plugins`, and `--safe` (or `SUMI_SAFE=1`) confines a
/// run's files and limits its size and time, each violation exit 2 with a message.
@Suite struct SafeModeTests {
    /// A shared library whose constructor creates the file named by `SUMI_TEST_MARKER`: proof
    /// that something loaded it.
    func markerLibrary(in dir: String) throws -> String {
        let source = "\(dir)/marker.c", library = "\(dir)/libmarker.so"
        try """
        #include <stdio.h>
        #include <stdlib.h>
        __attribute__((constructor)) static void loaded(void) {
            const char *path = getenv("SUMI_TEST_MARKER");
            if (path) { FILE *f = fopen(path, "w"); if (f) fclose(f); }
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", library, source])
        try #require(r.status == 0, "\(r.stderr)")
        return library
    }

    func write(_ manifest: String, in dir: String) throws -> String {
        let path = "\(dir)/m.json"
        try manifest.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func validateNeverLoadsAManifestsPlugins() throws {
        let dir = try CLI.temporaryFolder("no-load")
        let library = try markerLibrary(in: dir)
        let marker = "\(dir)/loaded"
        let manifest = try write("""
        {"sumi": 1, "plugins": ["\(library)"],
         "stages": [{"stage": "decode", "with": {"path": "\(Fixtures.photo)"}}, {"stage": "frobnicate"},
                    {"stage": "encode", "with": {"path": "\(dir)/o.png"}}]}
        """, in: dir)
        let env = ["SUMI_TEST_MARKER": marker]
        let validate = try CLI.run(["validate", manifest], environment: env)
        #expect(validate.status == 2, "\(validate.stderr)")
        #expect(validate.stderr.contains("stages[1] (frobnicate): unknown stage \"frobnicate\": validate never loads a manifest's plugins"), "\(validate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "validate loaded the plugin")
        // run: outside the configured folders, only with --allow-manifest-plugins.
        let run = try CLI.run(["run", manifest], environment: env)
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("plugins: \(library) is outside the configured plugin folders; loading it runs its code: give --allow-manifest-plugins"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "run loaded the plugin")
        let allowed = try CLI.run(["run", manifest, "--allow-manifest-plugins"], environment: env)
        #expect(FileManager.default.fileExists(atPath: marker), "\(allowed.stderr)")
        #expect(allowed.status == 2 && allowed.stderr.contains("is not a loadable library") || allowed.stderr.contains("sumi_plugin_init"), "\(allowed.stderr)")
    }

    @Test func aSafeRunRefusesToReadWriteOrLoadOutsideItsBounds() throws {
        let dir = try CLI.temporaryFolder("safe")
        let library = try markerLibrary(in: dir)
        let marker = "\(dir)/loaded"
        try FileManager.default.createDirectory(atPath: "\(dir)/in", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/in/photo.jpg")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/in/link.jpg", withDestinationPath: "/etc/passwd")
        func manifest(read: String, write: String, plugins: String = "") -> String {
            """
            {"sumi": 1, \(plugins) "params": {"input": {"type": "path"}, "output": {"type": "path"}},
             "stages": [{"stage": "decode", "with": {"path": "\(read)"}}, {"stage": "scale", "with": {"width": 16}},
                        {"stage": "encode", "with": {"path": "\(write)"}}]}
            """
        }
        let cases: [(String, String, String)] = [
            (manifest(read: "/etc/passwd", write: "${output}"), "stages[0] (decode): parameter \"path\": --safe: reads only the files given with -i", "/etc/passwd"),
            (manifest(read: "${input}/../../../etc/passwd", write: "${output}"), "stages[0] (decode): parameter \"path\": --safe: reads only", "read through .."),
            (manifest(read: "\(dir)/in/link.jpg", write: "${output}"), "stages[0] (decode): parameter \"path\": --safe: reads only", "a link out"),
            (manifest(read: "${input}", write: "\(dir)/evil.png"), "stages[2] (encode): parameter \"path\": --safe: writes only below the folder of -o", "write outside"),
            (manifest(read: "${input}", write: "\(dir)/out/../evil.png"), "stages[2] (encode): parameter \"path\": --safe: writes only below", "write through .."),
            (manifest(read: "${input}", write: "${output}", plugins: "\"plugins\": [\"\(library)\"],"), "--safe: the manifest names plugins", "a plugin"),
        ]
        for (text, message, what) in cases {
            let path = try write(text, in: dir)
            for (flag, env) in [(["--safe"], ["SUMI_TEST_MARKER": marker]), ([], ["SUMI_SAFE": "1", "SUMI_TEST_MARKER": marker])] {
                let input = what == "read through .." ? "\(dir)/in" : "\(dir)/in/photo.jpg"
                let r = try CLI.run(["run", path, "-i", input, "-o", "\(dir)/out/o.png"] + flag, environment: env)
                #expect(r.status == 2, "\(what): \(r.stderr)")
                #expect(r.stderr.contains(message), "\(what): \(r.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "a safe run loaded a plugin")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/evil.png"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").isEmpty)
        // Within its bounds a safe run works.
        let ok = try CLI.run(["run", try write(manifest(read: "${input}", write: "${output}"), in: dir), "--safe",
                              "-i", "\(dir)/in/photo.jpg", "-o", "\(dir)/out/sub/o.png"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(CLI.identify("\(dir)/out/sub/o.png")?.width == 16)
    }

    @Test func aSafeRunHasLimits() throws {
        let dir = try CLI.temporaryFolder("safe-limits")
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/photo.jpg")
        let long = String(repeating: "a", count: 10_001)
        let many = Array(repeating: "\"\(dir)/photo.jpg\"", count: 65).joined(separator: ", ")
        let cases: [(String, String)] = [
            ("{\"stage\": \"text\", \"with\": {\"text\": \"\(long)\"}}", "parameter \"text\": --safe: at most 10000 characters in a safe run, got 10001"),
            ("{\"stage\": \"decode\", \"with\": {\"path\": [\(many)]}}, {\"stage\": \"stitch\"}", "parameter \"path\": --safe: at most 64 files per stage, got 65"),
            ("{\"stage\": \"decode\", \"with\": {\"path\": \"\(dir)/photo.jpg\", \"max-pixels\": 60000000}}", "parameter \"max-pixels\": --safe: at most 50000000 in a safe run, got 60000000"),
        ]
        for (stages, message) in cases {
            let manifest = "{\"sumi\": 1, \"params\": {\"input\": {\"type\": \"path\"}, \"output\": {\"type\": \"path\"}}, \"stages\": [\(stages), {\"stage\": \"encode\", \"with\": {\"path\": \"${output}\"}}]}"
            try manifest.write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
            let r = try CLI.run(["run", "\(dir)/m.json", "--safe", "-i", "\(dir)/photo.jpg", "-o", "\(dir)/o.png"])
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.contains(message), "\(r.stderr)")
        }
        // Decoded pixels: 8000×7000 is over the safe limit though under decode's own default.
        try #require(CLI.tool("/usr/bin/convert", ["-size", "8000x7000", "xc:white", "\(dir)/big.png"]) != nil)
        let big = try CLI.run(["run", "pipelines/thumbnail.json", "--safe", "-i", "\(dir)/big.png", "-o", "\(dir)/o.jpg"])
        #expect(big.status == 1 && big.stderr.contains("more than max-pixels 50000000"), "\(big.stderr)")
        // Time: a batch that takes longer than SUMI_SAFE_SECONDS is stopped, exit 2, no temporary file.
        let inputs = try (0..<40).flatMap { i in
            try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: "\(dir)/p\(i).jpg")
            return ["-i", "\(dir)/p\(i).jpg"]
        }
        try FileManager.default.createDirectory(atPath: "\(dir)/t", withIntermediateDirectories: true)
        let slow = try CLI.run(["run", "pipelines/thumbnail.json", "--safe", "--jobs", "1", "-o", "\(dir)/t/{stem}.png", "--set", "width=1500"] + inputs,
                               environment: ["SUMI_SAFE_SECONDS": "1"])
        #expect(slow.status == 2, "\(slow.stderr)")
        #expect(slow.stderr.contains("sumi: error: --safe: the run took longer than its limit of 1 s; stopped"), "\(slow.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/t").filter { $0.contains(".sumi-") }.isEmpty)
        // Memory: a run whose resident memory passes SUMI_SAFE_MEMORY_MB is stopped cleanly (exit 2, a
        // message, no temporary file), not killed by a failed allocation. Scaling the photo ×2 and
        // turning it (a turn needs the whole image) holds about 100 MB of pixels; ×3 (54 MP) is over
        // the safe pixel limit and refused before any row, exit 1.
        try FileManager.default.createDirectory(atPath: "\(dir)/m", withIntermediateDirectories: true)
        try """
        {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}, "factor": {"type": "number", "default": 2}},
         "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "scale", "with": {"factor": "${factor}"}},
                    {"stage": "rotate", "with": {"angle": 90}}, {"stage": "encode", "with": {"path": "${output}"}}]}
        """.write(toFile: "\(dir)/grow.json", atomically: true, encoding: .utf8)
        let hungry = try CLI.run(["run", "\(dir)/grow.json", "--safe", "-i", "\(dir)/p0.jpg", "-o", "\(dir)/m/big.png"],
                                 environment: ["SUMI_SAFE_MEMORY_MB": "64"])
        #expect(hungry.status == 2, "\(hungry.stderr)")
        #expect(hungry.stderr.contains("more than its limit of 64 MB; stopped"), "\(hungry.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/m").isEmpty)
        let tooLarge = try CLI.run(["run", "\(dir)/grow.json", "--safe", "-i", "\(dir)/p0.jpg", "-o", "\(dir)/m/big.png", "--set", "factor=3"])
        #expect(tooLarge.status == 1, "\(tooLarge.stderr)")
        #expect(tooLarge.stderr.contains("would make an image of 9000x6006 pixels (54.1 megapixels), more than this run allows"), "\(tooLarge.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/m").isEmpty)
    }
}
