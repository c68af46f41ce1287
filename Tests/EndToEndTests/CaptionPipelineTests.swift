import Foundation
import Testing

/// `pipelines/caption.json` through the CLI: the preview-to-original story, measured on the output.
@Suite struct CaptionPipelineTests {
    /// The output's RGB bytes (via ImageMagick) and size.
    func pixels(_ path: String) throws -> (bytes: [UInt8], width: Int, height: Int) {
        let info = try #require(CLI.identify(path))
        let raw = try #require(CLI.tool("/usr/bin/convert", [path, "-depth", "8", "rgb:-"]))
        return ([UInt8](raw), info.width, info.height)
    }

    /// `place`'s rotation: out of range or not a finite number is exit 2 naming the stage and the
    /// parameter, before anything is decoded or written.
    @Test func badRotationIsRefusedBeforeRunning() throws {
        let dir = try CLI.temporaryFolder("caption-rotation")
        for bad in ["400", "-360.5", "nan", "inf", "-1e999"] {
            let r = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "-o", dir + "/c.jpg", "--set", "placed.rotation=" + bad])
            #expect(r.status == 2, "rotation \(bad): \(r.stderr)")
            #expect(r.stderr.contains("stages[2] \"placed\" (place): parameter \"rotation\""), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/c.jpg"))
        let ok = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "-o", dir + "/c.jpg", "--set", "placed.rotation=-360"])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    /// The manifest before it offered the style parameters: with their defaults the caption
    /// pipeline writes the same bytes, for the default caption and a dragged Japanese one.
    static let plainManifest = """
    {"sumi": 1, "name": "caption",
     "params": {"input": {"type": "path"}, "output": {"type": "path"}, "text": {"type": "string", "default": "Hello"},
                "frame": {"type": "size", "default": "390x0"}, "offset": {"type": "point", "default": "0,0"}},
     "stages": [{"id": "photo", "stage": "decode", "with": {"path": "${input}"}},
                {"id": "label", "stage": "text", "with": {"text": "${text}", "size": 17, "color": "red", "padding": 16, "border": 1, "border-color": "black"}},
                {"id": "placed", "stage": "place", "from": {"base": "photo", "layer": "label"}, "with": {"frame": "${frame}", "offset": "${offset}"}},
                {"id": "out", "stage": "blend", "from": {"base": "photo", "layer": "placed"}},
                {"stage": "encode", "with": {"path": "${output}", "quality": 90}}]}
    """

    @Test func styleParametersLeaveTheDefaultOutputUnchanged() throws {
        let dir = try CLI.temporaryFolder("caption-defaults")
        let plain = dir + "/plain.json"
        try Self.plainManifest.write(toFile: plain, atomically: true, encoding: .utf8)
        for (name, sets) in [("default.jpg", [String]()), ("story.png", ["--set", "text=東京タワー Tokyo", "--set", "offset=40,-30"])] {
            let shipped = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "-i", Fixtures.photo, "-o", dir + "/shipped-" + name] + sets)
            let before = try CLI.run(["run", plain, "-i", Fixtures.photo, "-o", dir + "/plain-" + name] + sets)
            #expect(shipped.status == 0 && before.status == 0, "\(shipped.stderr) \(before.stderr)")
            let a = FileManager.default.contents(atPath: dir + "/shipped-" + name), b = FileManager.default.contents(atPath: dir + "/plain-" + name)
            #expect(a != nil && a == b, "\(name) differs")
        }
    }

    @Test func runsWithNoArguments() throws {
        let dir = try CLI.temporaryFolder("caption-default")
        let r = try CLI.run(["run", CLI.root + "/pipelines/caption.json", "--json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try #require(CLI.identify(dir + "/out/caption.jpg"))
        #expect(info.format == "JPEG" && info.width == 3000 && info.height == 2002)
        let output = try #require((r.reports.first?["outputs"] as? [[String: Any]])?.first)
        #expect(output["width"] as? Int == 3000 && output["height"] as? Int == 2002)
    }

    /// The story: a 390×260 preview of the 3000×2002 photo (scale 7.7), the caption dragged 40 right
    /// and 30 up from the centre: its box is centred at (1500 + 40·7.7, 1001 − 30·7.7).
    @Test func captionLandsWhereThePreviewShowedIt() throws {
        let dir = try CLI.temporaryFolder("caption-story")
        let out = dir + "/c.png"
        let r = try CLI.run(["run", "pipelines/caption.json", "-i", Fixtures.photo, "-o", out,
                             "--set", "text=東京タワー Tokyo", "--set", "frame=390x260", "--set", "offset=40,-30"])
        #expect(r.status == 0, "\(r.stderr)")
        let img = try pixels(out)
        #expect(img.width == 3000 && img.height == 2002)
        // The 1-unit black border becomes a 7.7 px frame: find the near-black pixels in the sky.
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in 0..<1300 {
            for x in 0..<3000 {
                let i = (y * 3000 + x) * 3
                if img.bytes[i] < 40 && img.bytes[i + 1] < 40 && img.bytes[i + 2] < 40 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        let centreX = Double(minX + maxX + 1) / 2, centreY = Double(minY + maxY + 1) / 2
        #expect(abs(centreX - (1500 + 40 * 7.7)) <= 1.5, "box x \(minX)...\(maxX)")
        #expect(abs(centreY - (1001 - 30 * 7.7)) <= 1.5, "box y \(minY)...\(maxY)")
        // Height: at least the padding (2 × 16) and border (2 × 1) plus one 17 px line, scaled 7.7×.
        let height = Double(maxY - minY + 1)
        #expect(height > (32 + 2 + 17) * 7.7 && height < (32 + 2 + 17 * 2) * 7.7, "box height \(height)")
        // Red text inside the box.
        var red = 0
        for y in minY..<maxY { for x in minX..<maxX {
            let i = (y * 3000 + x) * 3
            if img.bytes[i] > 200 && img.bytes[i + 1] < 60 && img.bytes[i + 2] < 60 { red += 1 }
        } }
        #expect(red > 20_000, "red pixels: \(red)")
        // Sharp: across the border's outer edge, sky turns to black within about a pixel.
        let row = (minY + maxY) / 2
        func luma(_ x: Int) -> Double {
            let i = (row * 3000 + x) * 3
            return (Double(img.bytes[i]) + Double(img.bytes[i + 1]) + Double(img.bytes[i + 2])) / 3
        }
        let sky = luma(minX - 6), ink = luma(minX + 3)
        var transition = 0
        for x in (minX - 4)...(minX + 2) {
            let v = luma(x)
            if v < sky - 0.1 * (sky - ink) && v > ink + 0.1 * (sky - ink) { transition += 1 }
        }
        #expect(transition <= 2, "edge transition over \(transition) px")
    }

    /// The photo stored as a camera would for each EXIF orientation (the transform that orientation
    /// undoes): every one is captioned upright, exactly like the upright original.
    static let storedForms: [(UInt8, [String])] = [
        (1, []), (2, ["-flop"]), (3, ["-rotate", "180"]), (4, ["-flip"]),
        (5, ["-transpose"]), (6, ["-rotate", "-90"]), (7, ["-transverse"]), (8, ["-rotate", "90"]),
    ]

    @Test(arguments: storedForms)
    func everyOrientationIsCaptionedUpright(orientation: UInt8, stores: [String]) throws {
        let dir = try CLI.temporaryFolder("caption-orient-\(orientation)")
        // A smaller upright photo, lossless until the final JPEG, so the comparison measures placement.
        _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "600x400!", "-quality", "100", dir + "/upright.jpg"])
        _ = CLI.tool("/usr/bin/convert", [dir + "/upright.jpg"] + stores + ["-quality", "100", dir + "/stored.jpg"])
        let stored = dir + "/stored-\(orientation).jpg"
        try Fixtures.write(Fixtures.withOrientation(try Fixtures.bytes(dir + "/stored.jpg"), orientation), to: stored)
        let args = ["--set", "text=Upright", "--set", "offset=-60,40", "--set", "frame=390x260"]
        let r = try CLI.run(["run", "pipelines/caption.json", "-i", stored, "-o", dir + "/o.png"] + args)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try #require(CLI.identify(dir + "/o.png"))
        #expect(info.width == 600 && info.height == 400)
        let reference = try CLI.run(["run", "pipelines/caption.json", "-i", dir + "/upright.jpg", "-o", dir + "/r.png"] + args)
        #expect(reference.status == 0)
        let psnr = try #require(Fixtures.psnr(dir + "/o.png", dir + "/r.png"))
        #expect(psnr > 35, "orientation \(orientation): PSNR \(psnr)")
    }

    @Test func batchCaptionsEachPhoto() throws {
        let dir = try CLI.temporaryFolder("caption-batch")
        for n in 0..<3 { _ = CLI.tool("/usr/bin/convert", [Fixtures.photo, "-resize", "\(900 - n * 100)x", dir + "/p\(n).jpg"]) }
        let r = try CLI.run(["run", "pipelines/caption.json", "-i", dir + "/p0.jpg", "-i", dir + "/p1.jpg", "-i", dir + "/p2.jpg",
                             "-o", dir + "/out/{stem}-captioned.jpg", "--jobs", "2", "--json", "--set", "text=Batch"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.reports.count == 3)
        for n in 0..<3 {
            #expect(CLI.identify(dir + "/out/p\(n)-captioned.jpg")?.width == 900 - n * 100)
        }
    }

    /// The contract's own example message, word for word.
    @Test func contractExampleError() throws {
        let dir = try CLI.temporaryFolder("caption-size")
        let text = try String(contentsOfFile: CLI.root + "/pipelines/caption.json", encoding: .utf8)
            .replacingOccurrences(of: "\"default\": 17}", with: "\"default\": -3}")
        #expect(text.contains("\"default\": -3}"))
        try text.write(toFile: dir + "/caption.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", dir + "/caption.json"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr == "sumi: error: caption.json: stages[1] \"label\" (text): parameter \"size\": expected a number > 0, got -3\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/caption.jpg"))
    }

    @Test func impossibleParametersAreValidationErrors() throws {
        let dir = try CLI.temporaryFolder("impossible")
        let r = try CLI.run(["run", "pipelines/caption.json", "--set", "text=", "-o", dir + "/never-written.jpg"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("stages[1] \"label\" (text)") && r.stderr.contains("text"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/never-written.jpg"))
        let frame = try CLI.run(["validate", "pipelines/caption.json", "--set", "frame=0x0"])
        #expect(frame.status == 2 && frame.stderr.contains("frame"), "\(frame.stderr)")
    }
}
