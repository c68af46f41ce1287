import Foundation
import Testing

/// Side data through the command line: a stage between `stitch` and `pdf-page` that moves pixels
/// keeps `capture:N` on the same content (built-in stages state their geometry), or the run is
/// refused with a clear message (a plugin that does not describe what it does).
@Suite struct SideDataCLITests {
    let contentHeight = 2954.0
    let captures = (0...4).map { CLI.root + "/pipelines/samples/page-\($0).png" }

    /// Writes a manifest decode → stitch → `middle` → pdf-page opening on capture:2, runs it and
    /// returns the result and the report's viewport rectangle (PDF points, origin bottom-left).
    func run(middle: String, pluginFolder: String? = nil, in dir: String) throws -> (CLI.Result, [Double]?) {
        let inputs = captures.map { "\"\($0)\"" }.joined(separator: ", ")
        let manifest = """
        {"sumi": 1,
         "stages": [
           {"stage": "decode", "with": {"path": [\(inputs)]}},
           {"stage": "stitch"},
           \(middle),
           {"stage": "pdf-page", "with": {"path": "\(dir)/p.pdf", "viewport": "capture:2"}}]}
        """
        try manifest.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", dir + "/m.json", "--json"] + (pluginFolder.map { ["--plugin-path", $0] } ?? []))
        let rect = ((r.reports.first?["outputs"] as? [[String: Any]])?.first?["rectInCurrentPage"] as? [Any])?
            .compactMap { ($0 as? NSNumber)?.doubleValue }
        return (r, rect)
    }

    @Test func aVerticalFlipMirrorsTheCapture() throws {
        let dir = try CLI.temporaryFolder("side-flip")
        let (r, rect) = try run(middle: #"{"stage": "flip", "with": {"direction": "vertical"}}"#, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // capture:2 starts 1240 px down; flipped, it starts 2954 - 1240 - 844 = 870 px down, so in PDF
        // coordinates (from the bottom) it starts at 1240.
        #expect(rect == [0, 1240, 390, 844], "\(rect ?? [])")
        // The pixels there are the capture's, upside down: compare with the flipped sample.
        _ = CLI.tool("/usr/bin/pdftocairo", ["-png", "-r", "72", "-singlefile", dir + "/p.pdf", dir + "/render"])
        _ = CLI.tool("/usr/bin/convert", [dir + "/render.png", "-crop", "390x600+0+\(870 + 122)", "+repage", dir + "/got.png"])
        _ = CLI.tool("/usr/bin/convert", [captures[2], "-flip", "-crop", "390x600+0+122", "+repage", dir + "/want.png"])
        let psnr = try #require(Fixtures.psnr(dir + "/got.png", dir + "/want.png"))
        #expect(psnr > 40, "PSNR \(psnr)")
    }

    @Test func aCropMovesAndClipsTheCapture() throws {
        let dir = try CLI.temporaryFolder("side-crop")
        let (r, rect) = try run(middle: #"{"stage": "crop", "with": {"rect": "0,1000,390,1500"}}"#, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // capture:2 is at y 240 of the 1500-pixel crop: 1500 - 240 - 844 = 416 from the bottom.
        #expect(rect == [0, 416, 390, 844], "\(rect ?? [])")
        try FileManager.default.removeItem(atPath: dir + "/p.pdf")
        let (outside, _) = try run(middle: #"{"stage": "crop", "with": {"rect": "0,0,390,1000"}}"#, in: dir)
        #expect(outside.status == 1)
        #expect(outside.stderr.contains("capture:2 is no longer known"), "\(outside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/p.pdf"))
    }

    @Test func aScaleScalesTheCapture() throws {
        let dir = try CLI.temporaryFolder("side-scale")
        let (r, rect) = try run(middle: #"{"stage": "scale", "with": {"factor": 0.5}}"#, in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = [0, (contentHeight - 1240 - 844) / 2, 195, 422]
        #expect(rect.map { zip($0, expected).allSatisfy { abs($0 - $1) < 0.51 } } == true, "\(rect ?? []) vs \(expected)")
    }

    /// A C plugin (ABI v1) that mirrors rows without declaring its effect: the host cannot know
    /// where the captures went, so capture:N is refused rather than pointing at other pixels. The
    /// example pixelate plugin declares `"effect": "pixels"` and keeps them.
    @Test func pluginsKeepCapturesOnlyWhenTheyDeclareTheirEffect() throws {
        let dir = try CLI.temporaryFolder("side-plugin")
        let source = dir + "/mirror.c"
        try Self.mirrorPlugin.write(toFile: source, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/plugins", withIntermediateDirectories: true)
        let built = CLI.tool("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-I", CLI.root + "/Tests/PluginTests/Fixtures/v1",
                                              "-o", dir + "/plugins/libmirror.so", source])
        try #require(built != nil, "cc could not build the test plugin")
        let (refused, _) = try run(middle: #"{"stage": "mirror"}"#, pluginFolder: dir + "/plugins", in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("capture:2 is no longer known"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/p.pdf"))

        let pixelate = CLI.root + "/.build/plugins/libpixelate.so"
        try #require(FileManager.default.fileExists(atPath: pixelate), "run `make examples` first")
        let (kept, rect) = try run(middle: #"{"stage": "pixelate"}"#, pluginFolder: CLI.root + "/.build/plugins", in: dir)
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(rect == [0, contentHeight - 1240 - 844, 390, 844], "\(rect ?? [])")
    }

    static let mirrorPlugin = #"""
    #include <string.h>
    #include "sumi_plugin.h"
    static const char descriptor[] = "{\"name\": \"mirror\", \"summary\": \"Turns rows upside down\","
        " \"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\", \"params\": []}";
    static int32_t create(const sumi_stage *s, const char *p, const char *g, void **instance, sumi_error *e) {
        (void)s; (void)p; (void)g; (void)e; *instance = NULL; return SUMI_OK;
    }
    static int32_t process(void *self, const sumi_image *in, uint32_t n, sumi_output *out, sumi_error *e) {
        (void)self; (void)n; (void)e;
        int64_t stride = 0;
        uint8_t *pixels = out->allocate(out, in->width, in->height, &stride);
        if (pixels == NULL) return SUMI_ERROR_OUT_OF_MEMORY;
        for (int32_t y = 0; y < in->height; y++)
            memcpy(pixels + y * stride, in->pixels + (in->height - 1 - y) * in->stride, (size_t)in->width * 4);
        return SUMI_OK;
    }
    static void destroy(void *self) { (void)self; }
    static const sumi_stage stages[] = {{ .size = sizeof(sumi_stage), .descriptor_json = descriptor,
        .create = create, .process = process, .destroy = destroy }};
    static const sumi_plugin plugin = { .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
        .name = "mirror", .version = "1.0.0", .stage_count = 1, .stages = stages };
    SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
        (void)host; *out = &plugin; return SUMI_OK;
    }
    """#
}
