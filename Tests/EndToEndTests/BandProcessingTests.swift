import Foundation
import Testing

/// Band processing through the whole graph: the streamed run gives the bytes 0.2 gave (`Golden`; its
/// streamed and whole-image runs were equal), a file found broken after bands were already encoded leaves no output, and
/// the caption's memory no longer grows with the photo.
@Suite struct BandProcessingTests {
    static let caption = ["--set", "text=東京タワー Tokyo Tower", "--set", "frame=425x284"]

    /// 0.2's outputs for the jobs below (`Golden`).
    static let references: [String: String] = [
        "crop-flip.jpg": "28dbd628e0cfae6135ecf82f416037972265940694b67666d0c3c5addfd423c5",
        "crop-flip-vertical.jpg": "60a8346cb79367ff2e9b94b5bde10eedafce418b8b4b4d51fc16739d69287498",
        "caption.jpg": "f6c0d167464f716f8581ebecfe51a043469b5760c0c092aaa16aefc09d7f06c8",
        "caption.png": "bb1db1cf5a9b2c4bcc37fcb896d002e1cdf582f1661d9e8248cf970af8bb5400",
        "thumbnail.jpg": "a4932f15242869938604d2d68f5778d1d3308e852c4ce7506f66540cd3f4299e",
        "thumbnail.png": "d89342cddd64012ab3f38d46f3904fdae8b22c50ca773ab9c5ba47ae76e146b9",
        "recode.jpg": "a2c3379183c7b0064c8670d4a6b47117af7a2c050128aa4f11e5b420e94682fb",
        "recode.png": "e0953c65adbcaf3d4a59bfb92fb639a098d4efe6cae1e23210ddf33bc7cd7ded",
        "photo-to.png": "1eba2d23d3534b39357422b9fc3e0de1a22a806988c2adf04796873be8b2e826",
        "translucent-to.png": "e1ea65621d33cd5386e42bef07acb078e828efc23e4675cca392ad34fd3622bc",
        "grey-to.png": "ddea102775c11470e0b0b17955dfc57da331d34058ad8bfff81e27a98baf81dd",
        "screenshot-to.png": "68c82e07d6edc39ab7afaaa5ca54cfb4b8db97b1a0452e34f2d1cf53f0b52853",
        "webp-caption.jpg": "340d516718d17fd428b34841482548598addbdfafb29eda9858a6d0bc8e1a349",
        "webp-alpha.png": "1a6c05fffc65eae1fa9d8f6e89d17369adfaca2458c6526bf8dd999eec4b6404",
        "webp-lossless.png": "e1ea65621d33cd5386e42bef07acb078e828efc23e4675cca392ad34fd3622bc",
        "big.png": "2baecd7c706c274ace85159087954a6fa41592c65c10c657e9ebcdd41890b545",
        "big-webp.jpg": "08bd3c347c60a6fd2c6d7704724b84ee7dcbc5148ad635360c9b9fe665114e93"
    ]

    @Test func streamedBytesEqualTheReferenceBytes() throws {
        let dir = try CLI.temporaryFolder("bands-bytes")
        let png = "\(dir)/photo.png"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "1200x", png])
        let translucent = "\(dir)/translucent.png", grey = "\(dir)/grey.jpg"
        _ = CLI.tool("/usr/bin/convert", [png, "-alpha", "set", "-channel", "A", "-evaluate", "set", "60%", "+channel", translucent])
        _ = CLI.tool("/usr/bin/convert", [png, "-colorspace", "gray", grey])
        let webp = "\(dir)/photo.webp", webpAlpha = "\(dir)/alpha.webp", webpLossless = "\(dir)/lossless.webp"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-quality", "85", webp])
        _ = CLI.tool("/usr/bin/convert", [translucent, "-quality", "80", webpAlpha])
        _ = CLI.tool("/usr/bin/convert", [translucent, "-define", "webp:lossless=true", webpLossless])
        let recode = "\(dir)/recode.json"
        try Fixtures.write(Array(#"{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}}, "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "encode", "with": {"path": "${output}", "quality": 90}}]}"#.utf8), to: recode)
        let geometry = "\(dir)/geometry.json"
        try Fixtures.write(Array(#"{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}, "direction": {"type": "string", "default": "horizontal"}}, "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "crop", "with": {"rect": "101,333,2001,1201"}}, {"stage": "flip", "with": {"direction": "${direction}"}}, {"stage": "scale", "with": {"factor": 0.7}}, {"stage": "encode", "with": {"path": "${output}", "quality": 90}}]}"#.utf8), to: geometry)
        let jobs: [(String, [String])] = [
            ("crop-flip.jpg", ["run", geometry, "-i", Fixtures.photo]),
            ("crop-flip-vertical.jpg", ["run", geometry, "-i", Fixtures.photo, "--set", "direction=vertical"]),
            ("caption.jpg", ["run", "pipelines/caption.json", "-i", Fixtures.photo] + Self.caption),
            ("caption.png", ["run", "pipelines/caption.json", "-i", png] + Self.caption),
            ("thumbnail.jpg", ["run", "pipelines/thumbnail.json", "-i", Fixtures.photo]),
            ("thumbnail.png", ["run", "pipelines/thumbnail.json", "-i", png, "--set", "width=300"]),
            ("recode.jpg", ["run", recode, "-i", Fixtures.photo]),
            ("recode.png", ["run", recode, "-i", png]),
            // PNG output: streamed once the layout is certain (RGB, RGBA), else encoded whole
            // (grey, a few colours).
            ("photo-to.png", ["run", recode, "-i", Fixtures.photo]),
            ("translucent-to.png", ["run", recode, "-i", translucent]),
            ("grey-to.png", ["run", recode, "-i", grey]),
            ("screenshot-to.png", ["run", recode, "-i", "pipelines/samples/page-1.png"]),
            // WebP decoded row by row (lossy, lossy with alpha, lossless).
            ("webp-caption.jpg", ["run", "pipelines/caption.json", "-i", webp] + Self.caption),
            ("webp-alpha.png", ["run", recode, "-i", webpAlpha]),
            ("webp-lossless.png", ["run", recode, "-i", webpLossless]),
        ]
        for (name, arguments) in jobs {
            let r = try CLI.run(arguments + ["-o", "\(dir)/\(name)"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            Golden.expect(name, at: "\(dir)/\(name)", in: Self.references)
        }
    }

    @Test func aFileBrokenAfterSomeBandsLeavesNoOutput() throws {
        let dir = try CLI.temporaryFolder("bands-truncated")
        let photo = try Fixtures.bytes(Fixtures.photo)
        let png = "\(dir)/full.png"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, png])
        let pngBytes = try Fixtures.bytes(png)
        // Cut near the end: most bands have been decoded, blended and encoded when the error shows.
        try Fixtures.write(Array(photo.prefix(photo.count * 9 / 10)), to: "\(dir)/cut.jpg")
        try Fixtures.write(Array(pngBytes.prefix(pngBytes.count * 9 / 10)), to: "\(dir)/cut.png")
        let webp = "\(dir)/full.webp"
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-quality", "85", webp])
        let webpBytes = try Fixtures.bytes(webp)
        try Fixtures.write(Array(webpBytes.prefix(webpBytes.count * 9 / 10)), to: "\(dir)/cut.webp")
        for input in ["cut.jpg", "cut.png", "cut.webp"] {
            for (pipeline, extra) in [("caption", Self.caption), ("thumbnail", [])] {
                for output in ["out.jpg", "out.png"] {
                    // strict: the truncated JPEG fails too, rather than being decoded with a warning.
                    let r = try CLI.run(["run", "pipelines/\(pipeline).json", "-i", "\(dir)/\(input)", "-o", "\(dir)/\(output)",
                                         "--set", "photo.strict=true"] + extra)
                    #expect(r.status == 1, "\(pipeline) \(input) -> \(output): \(r.status) \(r.stderr)")
                    #expect(r.stderr.hasPrefix("sumi: error: \(pipeline).json: stages[0] \"photo\" (decode): \(dir)/\(input): "),
                            "\(r.stderr)")
                    #expect(!r.stderr.contains("stopped by a failure"), "\(r.stderr)")
                }
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["cut.jpg", "cut.png", "cut.webp", "full.png", "full.webp"], "\(left)")
    }

    @Test func captionMemoryStaysFlatOnA96MegapixelPhoto() throws {
        // 12000x8008 (a whole frame is 384 MB of RGBA): the whole-image path peaks above 400 MB;
        // streamed, the rings, the layer and the compressed input and output stay under 120 MB.
        let dir = try CLI.temporaryFolder("bands-memory")
        let big = "\(dir)/big.jpg"
        _ = CLI.tool("/usr/bin/vips", ["resize", Fixtures.photo, "\(big)[Q=90]", "4"])
        #expect(CLI.identify(big).map { ($0.width, $0.height) } ?? (0, 0) == (12000, 8008))
        let peak = "\(dir)/peak.txt"
        _ = CLI.tool("/usr/bin/time", ["-f", "%M", "-o", peak, CLI.binary, "run", "\(CLI.root)/pipelines/caption.json",
                                       "-i", big, "-o", "\(dir)/out.jpg", "--set", "text=東京タワー Tokyo Tower",
                                       "--set", "frame=1700x1136", "--quiet"])
        let kilobytes = Int(String(decoding: try Data(contentsOf: URL(fileURLWithPath: peak)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(CLI.identify("\(dir)/out.jpg").map { ($0.width, $0.height) } ?? (0, 0) == (12000, 8008))
        #expect(kilobytes > 0 && kilobytes < 120_000, "peak RSS \(kilobytes) KB")
    }

    /// A photo written as PNG streams once the layout is certain (its first rows), and a WebP photo
    /// is decoded row by row: each peak is well below one whole frame, with 0.2's bytes.
    @Test func pngOutputAndWebPInputOfAPhotoDoNotHoldTheImage() throws {
        let dir = try CLI.temporaryFolder("bands-png-memory")
        let big = "\(dir)/big.jpg"
        _ = CLI.tool("/usr/bin/vips", ["resize", Fixtures.photo, "\(big)[Q=90]", "2"])
        let recode = "\(dir)/recode.json"
        try Fixtures.write(Array(#"{"sumi": 1, "params": {"input": {"type": "path"}, "output": {"type": "path"}}, "stages": [{"stage": "decode", "with": {"path": "${input}"}}, {"stage": "encode", "with": {"path": "${output}", "compression": 1}}]}"#.utf8), to: recode)
        func peak(_ environment: [String: String], _ output: String) throws -> Int {
            let file = "\(dir)/peak.txt"
            _ = CLI.tool("/usr/bin/env", environment.map { "\($0)=\($1)" } + ["/usr/bin/time", "-f", "%M", "-o", file, CLI.binary, "run", recode,
                                                                             "-i", big, "-o", output, "--quiet"])
            return Int(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let streamed = try peak([:], "\(dir)/s.png")
        // The same photo as WebP, decoded row by row into a JPEG.
        let webp = "\(dir)/big.webp"
        _ = CLI.tool("/usr/bin/convert", [big, "-quality", "85", webp])
        func webpPeak(_ environment: [String: String], _ output: String) throws -> Int {
            let file = "\(dir)/peak-webp.txt"
            _ = CLI.tool("/usr/bin/env", environment.map { "\($0)=\($1)" } + ["/usr/bin/time", "-f", "%M", "-o", file, CLI.binary, "run",
                                                                             "\(CLI.root)/pipelines/thumbnail.json", "-i", webp, "-o", output,
                                                                             "--set", "width=6000", "--quiet"])
            return Int(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        // 6000x4004: one RGBA frame is 96 MB (93 843 KB); streamed, well under half of it.
        let webpStreamed = try webpPeak([:], "\(dir)/ws.jpg")
        #expect(webpStreamed > 0 && webpStreamed * 2 < 93_843, "WebP peak RSS streamed \(webpStreamed) KB")
        Golden.expect("big-webp.jpg", at: "\(dir)/ws.jpg", in: Self.references)
        #expect(CLI.identify("\(dir)/s.png").map { ($0.width, $0.height) } ?? (0, 0) == (6000, 4004))
        // 6000x4004: 96 MB of RGBA held whole (0.2's whole-image run peaked at 156 MB); streamed, the
        // compressed input and output (about 40 MB at compression 1) and a few rows: below one frame.
        #expect(streamed > 0 && streamed < 93_843, "peak RSS streamed \(streamed) KB")
        Golden.expect("big.png", at: "\(dir)/s.png", in: Self.references)
    }
}
