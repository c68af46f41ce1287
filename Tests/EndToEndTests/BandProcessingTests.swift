import Foundation
import Testing

/// Band processing through the whole graph: the streamed run gives the bytes of the whole-image run
/// (`SUMI_STREAMING=0`), a file found broken after bands were already encoded leaves no output, and
/// the caption's memory no longer grows with the photo.
@Suite struct BandProcessingTests {
    static let caption = ["--set", "text=東京タワー Tokyo Tower", "--set", "frame=425x284"]

    /// Runs `arguments` streamed and whole; returns both outputs' bytes.
    func bothWays(_ arguments: [String], output: String) throws -> (streamed: Data, whole: Data) {
        let streamedPath = output.replacingOccurrences(of: ".", with: "-streamed.")
        let wholePath = output.replacingOccurrences(of: ".", with: "-whole.")
        let s = try CLI.run(arguments + ["-o", streamedPath])
        let w = try CLI.run(arguments + ["-o", wholePath], environment: ["SUMI_STREAMING": "0"])
        #expect(s.status == 0 && w.status == 0, "\(s.stderr) \(w.stderr)")
        return (try Data(contentsOf: URL(fileURLWithPath: streamedPath)), try Data(contentsOf: URL(fileURLWithPath: wholePath)))
    }

    @Test func streamedBytesEqualWholeImageBytes() throws {
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
            let (streamed, whole) = try bothWays(arguments, output: "\(dir)/\(name)")
            #expect(streamed.count > 1000, "\(name)")
            #expect(streamed == whole, "\(name): \(streamed.count) bytes streamed, \(whole.count) whole")
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
                    let r = try CLI.run(["run", "pipelines/\(pipeline).json", "-i", "\(dir)/\(input)", "-o", "\(dir)/\(output)"] + extra)
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
    /// is decoded row by row: each peak is well below the whole-image run's, with the same bytes.
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
        let streamed = try peak([:], "\(dir)/s.png"), whole = try peak(["SUMI_STREAMING": "0"], "\(dir)/w.png")
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
        let webpStreamed = try webpPeak([:], "\(dir)/ws.jpg"), webpWhole = try webpPeak(["SUMI_STREAMING": "0"], "\(dir)/ww.jpg")
        #expect(webpStreamed > 0 && webpWhole > 0 && webpStreamed * 2 < webpWhole, "WebP peak RSS streamed \(webpStreamed) KB, whole \(webpWhole) KB")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/ws.jpg")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/ww.jpg")))
        #expect(CLI.identify("\(dir)/s.png").map { ($0.width, $0.height) } ?? (0, 0) == (6000, 4004))
        // 6000x4004: 96 MB of RGBA held whole; streamed, the compressed input and output and a few rows.
        #expect(streamed > 0 && whole > 0 && streamed * 2 < whole, "peak RSS streamed \(streamed) KB, whole \(whole) KB")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/s.png")) == Data(contentsOf: URL(fileURLWithPath: "\(dir)/w.png")))
    }
}
