import Foundation
import Testing

/// The built-in Compose family (`place`, `blend`) and the same sources built as a plugin library
/// (Examples/ComposePlugin, `make examples`) give byte-identical results: the plugin ABI carries a
/// built-in family — layers from `text` (vector, drawn at the final scale), two named ports, side
/// data — unchanged.
@Suite struct ComposeParityTests {
    static let folder = CLI.root + "/.build/plugins-compose"
    static let plugin = ["SUMI_SKIP_BUILTIN": "compose", "SUMI_PLUGIN_PATH": folder]

    func requirePlugin() throws {
        try #require(FileManager.default.fileExists(atPath: Self.folder + "/libComposePlugin.so"),
                     "run `make examples` first: libComposePlugin.so is missing")
    }

    @Test func theCaptionPipelineGivesTheSameBytesThroughThePlugin() throws {
        try requirePlugin()
        let dir = try CLI.temporaryFolder("parity")
        for (name, offset) in [("a", "0,0"), ("b", "37.5,-12.25")] {
            let builtin = try CLI.run(["run", "pipelines/caption.json", "-o", "\(dir)/\(name)-builtin.png",
                                       "--set", "text=Parity ✓", "--set", "offset=\(offset)"], environment: ["SUMI_SKIP_BUILTIN": ""])
            let plugin = try CLI.run(["run", "pipelines/caption.json", "-o", "\(dir)/\(name)-plugin.png",
                                      "--set", "text=Parity ✓", "--set", "offset=\(offset)"], environment: Self.plugin)
            #expect(builtin.status == 0 && plugin.status == 0, "\(builtin.stderr) \(plugin.stderr)")
            let a = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)-builtin.png"))
            let b = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name)-plugin.png"))
            #expect(a.count > 1000 && a == b, "the plugin's caption differs from the built-in one (\(a.count) vs \(b.count) bytes)")
        }
    }

    @Test func theStagesReallyComeFromThePlugin() throws {
        try requirePlugin()
        let r = try CLI.run(["stages", "--json"], environment: Self.plugin)
        #expect(r.status == 0, "\(r.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        for name in ["place", "blend"] {
            let stage = list.first { $0["name"] as? String == name }
            #expect((stage?["origin"] as? String)?.hasSuffix("/libComposePlugin.so") == true, "\(stage ?? [:])")
        }
        let dir = try CLI.temporaryFolder("parity-none")
        let without = try CLI.run(["run", "pipelines/caption.json", "-o", dir + "/out.png"],
                                  environment: ["SUMI_SKIP_BUILTIN": "compose", "SUMI_PLUGIN_PATH": ""])
        #expect(without.status == 2 && without.stderr.contains("unknown stage \"place\""), "\(without.stderr)")
    }
}
