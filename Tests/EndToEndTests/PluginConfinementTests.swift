import Foundation
import Testing

/// What a plugin may reach: in a `--safe` run its `write_file` writes only below the output folder,
/// and a manifest's `plugins` entry counts as inside a plugin folder only when folder loading would
/// load it (a `*.so` file directly in the folder).
@Suite struct PluginConfinementTests {
    /// `name` compiled from the version 2 test plugin with `defines` into `folder`.
    static func testPlugin(_ name: String, in folder: String, defines: [String]) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let output = folder + "/" + name
        let built = CLI.tool("/usr/bin/cc", ["-shared", "-fPIC", "-O1", "-I", CLI.root + "/Sources/CSumiPlugin/include"]
                             + defines.map { "-D" + $0 } + ["-o", output, CLI.root + "/Tests/PluginTests/Fixtures/v2_test_plugin.c", "-lm"])
        try #require(built != nil)
        return output
    }

    @Test func aSafeRunsWriteFileStaysInTheOutputFolder() throws {
        let dir = try CLI.temporaryFolder("safe-write-file")
        _ = try Self.testPlugin("libwriter.so", in: dir + "/plugins", defines: ["TEST_WRITER"])
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.photo, toPath: dir + "/in/photo.jpg")
        // Something of the user's, outside the output folder, reached directly and through a link.
        try Data("precious".utf8).write(to: URL(fileURLWithPath: dir + "/victim.txt"))
        try FileManager.default.createSymbolicLink(atPath: dir + "/out/link.txt", withDestinationPath: dir + "/victim.txt")
        func manifest(target: String) throws -> String {
            let path = dir + "/m-\(abs(target.hashValue)).json"
            try """
            {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
             "stages": [{"stage": "decode", "with": {"path": "${input}"}},
                        {"stage": "v2-write", "with": {"target": "\(target)"}}]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        func run(_ target: String, safe: Bool) throws -> CLI.Result {
            try CLI.run(["run", try manifest(target: target), "-i", dir + "/in/photo.jpg", "-o", dir + "/out/o.png",
                         "--plugin-path", dir + "/plugins"] + (safe ? ["--safe"] : []), in: dir)
        }
        for target in [dir + "/victim.txt", dir + "/out/link.txt", dir + "/out/../victim.txt", "victim.txt"] {
            let r = try run(target, safe: true)
            #expect(r.status == 1, "\(target): \(r.stderr)")
            #expect(r.stderr.contains("write_file: this run writes only below the output folder \(canonicalPath(dir + "/out")); refused"), "\(r.stderr)")
            #expect(try String(contentsOfFile: dir + "/victim.txt", encoding: .utf8) == "precious")
        }
        let inside = try run(dir + "/out/inside.txt", safe: true)
        #expect(inside.status == 0, "\(inside.stderr)")
        #expect(try String(contentsOfFile: dir + "/out/inside.txt", encoding: .utf8) == "v2-write\n")
        // Outside a safe run the plugin writes where it is told, as any program the user runs.
        let unsafe = try run(dir + "/elsewhere.txt", safe: false)
        #expect(unsafe.status == 0 && FileManager.default.fileExists(atPath: dir + "/elsewhere.txt"), "\(unsafe.stderr)")
    }

    @Test func aFormatEncoderWritesNoFiles() throws {
        let dir = try CLI.temporaryFolder("encoder-write-file")
        _ = try Self.testPlugin("libprobe.so", in: dir + "/plugins", defines: ["TEST_ENCODER", "TEST_ENCODER_WRITES"])
        let r = try CLI.run(["run", "-i", Fixtures.photo, "--plugin-path", dir + "/plugins",
                             "decode ! encode path=\(dir)/o.probeenc"], in: dir)
        #expect(r.status == 1 && r.stderr.contains("write_file: a format's decode or encode writes no files"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/probe-side-file.txt"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.probeenc"))
    }

    @Test func aManifestPluginFollowsTheFolderLoadingRule() throws {
        let dir = try CLI.temporaryFolder("manifest-plugin-rule")
        let folder = dir + "/plugins"
        // Not loaded by folder loading: one in a sub-folder, one not named *.so.
        let nested = try Self.testPlugin("libnested.so", in: folder + "/sub", defines: ["TEST_NAME_SUFFIX=\"-nested\""])
        let renamed = try Self.testPlugin("libplain.so", in: dir + "/build", defines: ["TEST_NAME_SUFFIX=\"-plain\""])
        try FileManager.default.copyItem(atPath: renamed, toPath: folder + "/plugin.txt")
        let direct = try Self.testPlugin("libdirect.so", in: folder, defines: ["TEST_NAME_SUFFIX=\"-direct\""])
        func run(_ library: String, suffix: String, extra: [String] = []) throws -> CLI.Result {
            let manifest = dir + "/m\(suffix).json"
            try """
            {"sumi": 1, "plugins": ["\(library)"],
             "stages": [{"stage": "decode", "with": {"path": "\(Fixtures.photo)"}}, {"stage": "v2-misbehave\(suffix)"},
                        {"stage": "encode", "with": {"path": "\(dir)/o\(suffix).png"}}]}
            """.write(toFile: manifest, atomically: true, encoding: .utf8)
            return try CLI.run(["run", manifest, "--plugin-path", folder] + extra)
        }
        let sub = try run(nested, suffix: "-nested")
        #expect(sub.status == 2 && sub.stderr.contains("plugins: \(nested) is outside the configured plugin folders"), "\(sub.stderr)")
        let txt = try run(folder + "/plugin.txt", suffix: "-plain")
        #expect(txt.status == 2 && txt.stderr.contains("plugins: \(folder)/plugin.txt is in a configured plugin folder but is not one of its libraries"),
                "\(txt.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o-nested.png") && !FileManager.default.fileExists(atPath: dir + "/o-plain.png"))
        let ok = try run(direct, suffix: "-direct")
        #expect(ok.status == 0 && FileManager.default.fileExists(atPath: dir + "/o-direct.png"), "\(ok.stderr)")
        // --allow-manifest-plugins still takes any library.
        let allowed = try run(nested, suffix: "-nested", extra: ["--allow-manifest-plugins"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}
