import Foundation
import Testing

/// Plugin stages with band callbacks (ABI version 2): `decode → invert-rust → encode` streams through
/// the plugin band by band, gives 0.2's bytes (`Golden`) and those of ImageMagick's `-negate`,
/// keeps memory far below one frame, and a band that fails stops the run without an output file.
/// `make test` builds the example plugins into `.build/plugins` first.
@Suite struct PluginBandTests {
    static let folder = CLI.root + "/.build/plugins"
    static let environment = ["SUMI_PLUGIN_PATH": folder]

    func requireInvert() throws {
        try #require(FileManager.default.fileExists(atPath: "\(Self.folder)/libinvert-rust.so"),
                     "run `make examples` first: libinvert-rust.so is missing")
    }

    static func manifest(_ dir: String, stage: String) throws -> String {
        let path = "\(dir)/\(stage).json"
        try Fixtures.write(Array("""
            {"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}},
             "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "\(stage)"},
                        {"stage": "encode", "with": {"path": "${output}", "quality": 90}}]}
            """.utf8), to: path)
        return path
    }

    /// 0.2's outputs of the inverting plugin (`Golden`).
    static let references: [String: String] = [
        "invert-png-out.png": "c0814c2590fa3de20b26bcd0a12005908f7cbb2611c9317453fbe5fef59fa483",
        "invert-png-out.jpg": "331161fa7a36691b31dba5f4d8a6f40b70593bc90b4a0638bbac1aea15ac5c36",
        "invert-jpg-photo.jpg": "4b675d4e2cbe7ad5cce7f038080db47d67af07857dd13ae3a29bc154f4c53d52"
    ]

    /// The decoded RGB bytes of an image file, by ImageMagick (with its extra arguments first).
    static func rgb(_ path: String, _ extra: [String] = []) -> Data? {
        CLI.tool("/usr/bin/convert", [path] + extra + ["-depth", "8", "rgb:-"])
    }

    @Test func bandedOutputEqualsTheReferenceAndImageMagicksNegate() throws {
        try requireInvert()
        let dir = try CLI.temporaryFolder("plugin-bands")
        let manifest = try Self.manifest(dir, stage: "invert-rust")
        // 1200x801: the last band is short, and PNG and JPEG decoders stream different band heights.
        let png = "\(dir)/photo.png"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "1200x", png])
        for (input, output) in [(png, "out.png"), (png, "out.jpg"), (Fixtures.photo, "photo.jpg")] {
            let streamed = "\(dir)/streamed-\(output)"
            let s = try CLI.run(["run", manifest, "-i", input, "-o", streamed], environment: Self.environment)
            #expect(s.status == 0, "\(s.stderr)")
            Golden.expect("invert-\(input == png ? "png" : "jpg")-\(output)", at: streamed, in: Self.references)
        }
        // Lossless end to end: every pixel is 255 - c, as ImageMagick computes it from the same PNG.
        let inspect = try CLI.run(["inspect", "invert-rust"], environment: Self.environment)
        #expect(inspect.stdout.contains("plugin ABI 2, band callbacks: streams"), "\(inspect.stdout)")
        let ours = try #require(Self.rgb("\(dir)/streamed-out.png"))
        let reference = try #require(Self.rgb(png, ["-negate"]))
        #expect(ours.count == 1200 * 801 * 3 && ours == reference)
    }

    @Test func aBandThatFailsMidwayStopsTheRunWithItsMessageAndNoOutput() throws {
        let dir = try CLI.temporaryFolder("plugin-bands-fail")
        let plugins = "\(dir)/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try Fixtures.write(Array(Self.failingPlugin.utf8), to: "\(dir)/failing.c")
        let header = CLI.root + "/Sources/CSumiPlugin/include"
        try #require(CLI.tool("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-I", header,
                                              "-o", "\(plugins)/libband-fail.so", "\(dir)/failing.c"]) != nil)
        let manifest = try Self.manifest(dir, stage: "band-fail")
        let png = "\(dir)/photo.png"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, png])
        for input in [Fixtures.photo, png] {
            for output in ["out.jpg", "out.png"] {
                let r = try CLI.run(["run", manifest, "-i", input, "-o", "\(dir)/\(output)"],
                                    environment: ["SUMI_PLUGIN_PATH": plugins])
                #expect(r.status == 1, "\(input) -> \(output): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains("stages[1] (band-fail): plugin libband-fail.so: band at row 1000 refused"),
                        "\(r.stderr)")
                #expect(!r.stderr.contains("stopped by a failure"), "\(r.stderr)")
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["band-fail.json", "failing.c", "photo.png", "plugins"], "\(left)")
    }

    @Test func theRingNeverHoldsTheWholeImage() throws {
        try requireInvert()
        // 12000x8008: one RGBA frame is 384 MB, the whole-image path holds two (input and output).
        let dir = try CLI.temporaryFolder("plugin-bands-memory")
        let big = "\(dir)/big.jpg"
        _ = CLI.tool("/usr/bin/vips", ["resize", Fixtures.photo, "\(big)[Q=90]", "4"])
        #expect(CLI.identify(big).map { ($0.width, $0.height) } ?? (0, 0) == (12000, 8008))
        let manifest = try Self.manifest(dir, stage: "invert-rust")
        let peak = "\(dir)/peak.txt"
        _ = CLI.tool("/usr/bin/env", ["SUMI_PLUGIN_PATH=\(Self.folder)", "/usr/bin/time", "-f", "%M", "-o", peak,
                                      CLI.binary, "run", manifest, "-i", big, "-o", "\(dir)/out.jpg", "--quiet"])
        let kilobytes = Int(String(decoding: try Data(contentsOf: URL(fileURLWithPath: peak)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(CLI.identify("\(dir)/out.jpg").map { ($0.width, $0.height) } ?? (0, 0) == (12000, 8008))
        #expect(kilobytes > 0 && kilobytes < 120_000, "peak RSS \(kilobytes) KB")
    }

    /// A version 2 plugin whose band callback refuses the band holding row 1000; its `process`
    /// copies the image.
    static let failingPlugin = #"""
    #include <stdlib.h>
    #include <string.h>
    #include "sumi_plugin.h"

    static const sumi_api *api;

    static int32_t create(const sumi_stage *stage, const sumi_params *params, void **instance, sumi_error *error) {
        (void)stage; (void)params; (void)error;
        *instance = NULL;
        return SUMI_OK;
    }

    static int32_t process(void *instance, sumi_call *call, const sumi_value *const *inputs, uint32_t count,
                           sumi_value **result, sumi_error *error) {
        (void)instance; (void)count;
        sumi_image in = { .size = sizeof in };
        if (api->image_pixels(inputs[0], &in) != SUMI_OK) return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "no image");
        uint8_t *out; int64_t stride;
        sumi_value *made = api->new_image(call, in.width, in.height, &out, &stride);
        if (made == NULL) return sumi_error_set(error, SUMI_ERROR_OUT_OF_MEMORY, NULL, "no memory");
        for (int32_t y = 0; y < in.height; y++) memcpy(out + y * stride, in.pixels + y * in.stride, (size_t)in.width * 4);
        *result = made;
        return SUMI_OK;
    }

    static void destroy(void *instance) { (void)instance; }

    static int32_t band_begin(void *instance, int32_t width, int32_t height, int32_t *ow, int32_t *oh, sumi_error *error) {
        (void)instance; (void)width; (void)height; (void)ow; (void)oh; (void)error;
        return SUMI_OK;
    }

    static int32_t band_process(void *instance, const uint8_t *in, uint8_t *out, int32_t first, int32_t rows,
                                int64_t stride, sumi_error *error) {
        (void)instance;
        if (first <= 1000 && 1000 < first + rows)
            return sumi_error_set(error, SUMI_ERROR_PROCESS, NULL, "band at row %d refused", 1000);
        memcpy(out, in, (size_t)(stride * rows));
        return SUMI_OK;
    }

    static int32_t band_end(void *instance, int32_t completed, sumi_error *error) {
        (void)instance; (void)completed; (void)error;
        return SUMI_OK;
    }

    static const sumi_stage stages[] = {{
        .size = sizeof(sumi_stage),
        .descriptor_json = "{\"name\": \"band-fail\", \"summary\": \"fails on a middle band\", "
                           "\"inputs\": [{\"name\": \"in\", \"type\": \"image\"}], \"output\": \"image\", "
                           "\"effect\": \"pixels\", \"params\": []}",
        .create = create, .process = process, .destroy = destroy,
        .band_begin = band_begin, .band_process = band_process, .band_end = band_end,
    }};

    static const sumi_plugin plugin = {
        .abi_version = SUMI_PLUGIN_ABI_VERSION, .size = sizeof(sumi_plugin),
        .name = "band-fail", .version = "1.0.0", .stage_count = 1, .stages = stages,
    };

    SUMI_PLUGIN_EXPORT int32_t sumi_plugin_init(const sumi_host *host, const sumi_plugin **out) {
        api = host->api;
        *out = &plugin;
        return SUMI_OK;
    }
    """#
}
