import Foundation
import SumiEngine
import SumiKit
import Testing

/// Plugins built from frozen copies of the headers earlier releases shipped (`Fixtures/v1`, the
/// version 1 header of 0.1.0; `Fixtures/v2`, the version 2 header of 0.2.0) load and run unchanged.
/// `make examples` builds them into `.build/plugins-frozen`; without it the tests compile the same
/// sources against the same headers.
@Suite struct FrozenHeaderTests {
    @Test func version1PluginFromTheFrozenHeaderRuns() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.frozen("frozen-v1", source: "Examples/pixelate-c/pixelate.c", header: "Tests/PluginTests/Fixtures/v1")
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        #expect(PluginLoader.library(at: canonical(path))?.abiVersion == 1)
        // Two 2x1 blocks: (0, 100) and (200, 50) average to 50 and 125.
        var pixels: [UInt8] = []
        for value in [0, 100, 200, 50] as [UInt8] { pixels += [value, value, value, 255] }
        let out = try StageHarness(definition: try #require(registry.definition(named: "pixelate")))
            .runImage(["block": .integer(2)], inputs: ["in": .image(Image(width: 4, height: 1, pixels: pixels))])
        #expect(out.pixel(x: 0, y: 0).r == 50 && out.pixel(x: 1, y: 0).r == 50)
        #expect(out.pixel(x: 2, y: 0).r == 125 && out.pixel(x: 3, y: 0).r == 125)
    }

    @Test func version2PluginFromTheFrozenHeaderRuns() throws {
        let fixtures = try PluginFixtures.get()
        let path = try fixtures.frozen("frozen-v2", source: "Tests/PluginTests/Fixtures/v2_test_plugin.c",
                                       header: "Tests/PluginTests/Fixtures/v2", libraries: ["-lm"])
        let registry = StageRegistry()
        try PluginLoader.loadLibrary(at: path, into: registry)
        let info = try #require(PluginLoader.library(at: canonical(path)))
        #expect(info.abiVersion == 2 && info.stages == ["v2-probe", "v2-disc", "v2-misbehave"])
        let base = Image(width: 4, height: 3, pixels: [UInt8](repeating: 7, count: 48))
        let out = try StageHarness(definition: try #require(registry.definition(named: "v2-probe"))).runImage(
            ["i": .integer(42), "li": .list([.integer(5)])],
            inputs: ["base": .image(base), "over": .image(Image(width: 7, height: 5, pixels: [UInt8](repeating: 0, count: 140))),
                     "list": .images([Image(width: 1, height: 1, pixels: [0, 0, 0, 255])])])
        #expect(out.pixels == base.pixels)
        let xmp = String(decoding: try #require(out.metadata.xmp), as: UTF8.self)
        #expect(xmp.contains("i=42"))
    }

    /// The superseded members (`sumi_plugin.stages` and `.formats`, `sumi_api.get_side_data`) are
    /// marked deprecated in the header, yet a plugin using them still builds with -Wall -Werror: the
    /// mark warns only for a plugin that defines SUMI_PLUGIN_DEPRECATION_WARNINGS.
    @Test func deprecatedMembersWarnOnlyWhenAPluginAsks() throws {
        let fixtures = try PluginFixtures.get()
        let source = try fixtures.fresh("deprecated") + ".c"
        try """
        #include "sumi_plugin.h"
        static const sumi_stage stages[1];
        SUMI_PLUGIN_EXPORT const sumi_plugin plugin = { .abi_version = SUMI_PLUGIN_ABI_VERSION, .stage_count = 1, .stages = stages };
        SUMI_PLUGIN_EXPORT int32_t read_icc(const sumi_api *api, const sumi_value *image) {
            const uint8_t *bytes; size_t length;
            return plugin.stages != 0 ? api->get_side_data(image, "icc-profile", &bytes, &length) : -1;
        }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        try PluginFixtures.compileC(source: source, output: source + ".so", root: fixtures.root)
        do {
            try PluginFixtures.compileC(source: source, output: source + ".warned.so", root: fixtures.root,
                                        defines: ["SUMI_PLUGIN_DEPRECATION_WARNINGS"])
            Issue.record("the deprecated members compiled without a warning when asked for one")
        } catch {
            let text = "\(error)"
            #expect(text.contains("'get_side_data' is deprecated") || text.contains("‘get_side_data’ is deprecated"), "\(text)")
            #expect(text.contains("stages") && text.contains("use stage_list"), "\(text)")
        }
    }

    /// The frozen copies are the headers as released, not edited since.
    @Test func frozenHeadersDeclareTheirVersions() throws {
        let fixtures = try PluginFixtures.get()
        let v1 = try String(contentsOfFile: fixtures.root + "/Tests/PluginTests/Fixtures/v1/sumi_plugin.h", encoding: .utf8)
        let v2 = try String(contentsOfFile: fixtures.root + "/Tests/PluginTests/Fixtures/v2/sumi_plugin.h", encoding: .utf8)
        #expect(v1.contains("#define SUMI_PLUGIN_ABI_VERSION 1u"))
        #expect(v2.contains("#define SUMI_PLUGIN_ABI_VERSION 2u") && !v2.contains("stage_list"))
    }
}
