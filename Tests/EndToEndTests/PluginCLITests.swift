import Foundation
import Testing

/// Plugins through the command line: every discovery route, a manifest mixing built-in and plugin
/// stages, and loading errors. `make test` builds the example plugins into `.build/plugins` first.
@Suite struct PluginCLITests {
    static let folder = CLI.root + "/.build/plugins"

    func requirePlugins() throws {
        for lib in ["libpixelate.so", "libSepiaPlugin.so"] {
            try #require(FileManager.default.fileExists(atPath: "\(Self.folder)/\(lib)"), "run `make examples` first: \(lib) is missing")
        }
    }

    @Test func stagesListsPluginsWithTheirOrigin() throws {
        try requirePlugins()
        for route in [["--plugin-path", Self.folder]] {
            let r = try CLI.run(["stages", "--json"] + route)
            #expect(r.status == 0, "\(r.stderr)")
            let list = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
            let pixelate = try #require(list.first { $0["name"] as? String == "pixelate" })
            #expect((pixelate["origin"] as? String)?.hasSuffix("/libpixelate.so") == true)
            let block = (pixelate["params"] as? [[String: Any]])?.first { $0["name"] as? String == "block" }
            #expect(block?["type"] as? String == "integer" && block?["default"] as? Int == 8)
            #expect(list.contains { $0["name"] as? String == "sepia" })
        }
        let env = try CLI.run(["inspect", "sepia"], environment: ["SUMI_PLUGIN_PATH": "/nonexistent-is-ignored-not:" + Self.folder])
        #expect(env.status == 2 || env.stdout.contains("libSepiaPlugin.so"))
        let envOnly = try CLI.run(["inspect", "sepia"], environment: ["SUMI_PLUGIN_PATH": Self.folder])
        #expect(envOnly.status == 0 && envOnly.stdout.contains("libSepiaPlugin.so"), "\(envOnly.stderr)")
    }

    @Test func manifestMixesBuiltinAndPluginStages() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("plugin-run")
        try FileManager.default.createDirectory(atPath: "\(dir)/plugins", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.folder)/libpixelate.so", toPath: "\(dir)/plugins/libpixelate.so")
        let manifest = """
        {"sumi": 1, "plugins": ["${here}/plugins/libpixelate.so"],
         "params": {"input": {"type": "path"}, "output": {"type": "path"}},
         "stages": [
           {"stage": "decode", "with": {"path": "${input}"}},
           {"stage": "scale", "with": {"width": 300}},
           {"stage": "pixelate", "with": {"block": 10}},
           {"stage": "sepia"},
           {"stage": "encode", "with": {"path": "${output}"}}]}
        """
        try manifest.write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", "\(dir)/m.json", "-i", Fixtures.photo, "-o", "\(dir)/o.png", "--plugin-path", Self.folder, "--json", "--allow-manifest-plugins"])
        // libpixelate.so is found twice (manifest and folder) at different paths: a clash is refused.
        #expect(r.status == 2 && r.stderr.contains("pixelate"), "\(r.stderr)")

        let ok = try CLI.run(["run", "\(dir)/m.json", "-i", Fixtures.photo, "-o", "\(dir)/o.png", "--json", "--allow-manifest-plugins"],
                             environment: ["SUMI_PLUGIN_PATH": "\(dir)/only-sepia"])
        #expect(ok.status == 2) // the sepia folder does not exist yet
        try FileManager.default.createDirectory(atPath: "\(dir)/only-sepia", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "\(Self.folder)/libSepiaPlugin.so", toPath: "\(dir)/only-sepia/libSepiaPlugin.so")
        let run = try CLI.run(["run", "\(dir)/m.json", "-i", Fixtures.photo, "-o", "\(dir)/o.png", "--json", "--allow-manifest-plugins"],
                              environment: ["SUMI_PLUGIN_PATH": "\(dir)/only-sepia"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(CLI.identify("\(dir)/o.png")?.width == 300)
        // Pixelated: within a 10×10 block every pixel is the same; sepia: red ≥ green ≥ blue.
        let raw = try #require(CLI.tool("/usr/bin/convert", ["\(dir)/o.png", "-depth", "8", "rgb:-"]))
        let px = [UInt8](raw)
        func at(_ x: Int, _ y: Int) -> (Int, Int, Int) { let i = (y * 300 + x) * 3; return (Int(px[i]), Int(px[i + 1]), Int(px[i + 2])) }
        for (bx, by) in [(0, 0), (50, 60), (120, 100), (280, 180)] {
            let first = at(bx, by)
            for dy in 0..<10 { for dx in 0..<10 { #expect(at(bx + dx, by + dy) == first) } }
            #expect(first.0 >= first.1 && first.1 >= first.2, "not sepia: \(first)")
        }
    }

    @Test func pluginParameterErrorsReadLikeBuiltins() throws {
        try requirePlugins()
        let dir = try CLI.temporaryFolder("plugin-param")
        try #"{"sumi": 1, "stages": [{"stage": "decode", "with": {"path": "x.png"}}, {"id": "tone", "stage": "sepia", "with": {"amount": 2}}]}"#
            .write(toFile: "\(dir)/m.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", "\(dir)/m.json", "--plugin-path", Self.folder])
        #expect(r.status == 2)
        #expect(r.stderr == "sumi: error: m.json: stages[1] \"tone\" (sepia): parameter \"amount\": expected a number from 0 to 1, got 2\n")
    }

    @Test func aLibraryThatIsNotAPluginIsSkippedWithAWarning() throws {
        let dir = try CLI.temporaryFolder("plugin-bad")
        let real = URL(fileURLWithPath: "/usr/lib/x86_64-linux-gnu/libz.so.1").resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: real, toPath: "\(dir)/libz.so")
        let r = try CLI.run(["stages", "--plugin-path", dir])
        #expect(r.status == 0)
        #expect(r.stderr.contains("\(dir)/libz.so") && r.stderr.contains("not a Sumi plugin"), "\(r.stderr)")
        #expect(r.stdout.contains("broken plugin") && r.stdout.contains("not a Sumi plugin"), "\(r.stdout)")
    }
}
