import Foundation
import Testing

/// Plugin folders behave like GStreamer's registry: a library that fails to load is a warning and is
/// listed as broken; commands that do not need it still work; a stage it might have offered is an
/// exit 2 naming the library and the reason. Plugins are told the one host version `--version` prints.
@Suite struct PluginRegistryCLITests {
    func folderWithABrokenLibrary() throws -> String {
        let dir = try CLI.temporaryFolder("broken-plugin")
        try FileManager.default.createDirectory(atPath: dir + "/plugins", withIntermediateDirectories: true)
        try "this is not an ELF file".write(toFile: dir + "/plugins/libbroken.so", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func aBrokenLibraryIsListedAndSkipped() throws {
        let dir = try folderWithABrokenLibrary()
        let r = try CLI.run(["stages", "--plugin-path", dir + "/plugins"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("libbroken.so skipped"), "\(r.stderr)")
        #expect(r.stdout.contains("broken plugin") && r.stdout.contains("libbroken.so"), "\(r.stdout)")
        #expect(r.stdout.contains("scale"))
        let json = try CLI.run(["stages", "--json", "--plugin-path", dir + "/plugins"])
        let list = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [[String: Any]])
        let broken = try #require(list.first { $0["broken"] != nil })
        #expect((broken["broken"] as? String)?.hasSuffix("/libbroken.so") == true)
        #expect((broken["reason"] as? String)?.contains("not a loadable library") == true)
    }

    @Test func runsThatDoNotNeedItStillWork() throws {
        let dir = try folderWithABrokenLibrary()
        let r = try CLI.run(["run", "pipelines/thumbnail.json", "-i", Fixtures.photo, "-o", dir + "/t.jpg",
                             "--set", "width=64"], environment: ["SUMI_PLUGIN_PATH": dir + "/plugins"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(CLI.identify(dir + "/t.jpg")?.width == 64)
    }

    @Test func aStageNobodyOffersNamesTheBrokenLibrary() throws {
        let dir = try folderWithABrokenLibrary()
        try #"{"sumi": 1, "stages": [{"stage": "glitter"}]}"#.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["validate", dir + "/m.json", "--plugin-path", dir + "/plugins"])
        #expect(r.status == 2)
        #expect(r.stderr.contains(#"unknown stage "glitter""#) && r.stderr.contains("libbroken.so (")
                && r.stderr.contains("not a loadable library"), "\(r.stderr)")
    }

    @Test func oneVersionForTheHost() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        let version = try String(contentsOfFile: CLI.root + "/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version == "0.3.0")
        #expect(r.stdout.hasPrefix("sumi \(version) (plugin ABI 1, 2; built with Swift "), "\(r.stdout)")
    }

    /// `--version` names the Swift release plugins are built with: the compiler's own `swift --version`
    /// (the toolchain that built this binary, first on PATH as the Makefile sets it).
    @Test func versionNamesTheSwiftRelease() throws {
        let r = try CLI.run(["--version"])
        let swift = try #require(CLI.tool("/usr/bin/env", ["swift", "--version"]))
        let line = String(decoding: swift, as: UTF8.self)
        let release = try #require(line.firstMatch(of: /Swift version ([0-9.]+)/)?.1)
        #expect(r.stdout.contains("built with Swift \(release):"), "\(r.stdout) — the compiler says \(line)")
    }
}
