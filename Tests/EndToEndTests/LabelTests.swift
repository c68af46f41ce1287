import Foundation
import Testing

/// `text → encode`: a label rendered on its own, through the CLI.
@Suite struct LabelTests {
    @Test func mixedScriptLabelRendersInColour() throws {
        let dir = try CLI.temporaryFolder("label")
        let manifest = """
        {"sumi": 1, "params": {"text": {"type": "string", "default": "Hello 東京 👋🏽 مرحبا"}, "output": {"type": "path"}},
         "stages": [{"id": "label", "stage": "text", "with": {"text": "${text}", "size": 48, "color": "#202040",
                                                                "background": "#fffbe8", "padding": 12}},
                    {"stage": "encode", "with": {"path": "${output}"}}]}
        """
        try manifest.write(toFile: dir + "/label.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", dir + "/label.json", "-o", dir + "/label.png", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("warning"), "\(r.stderr)")
        let info = try #require(CLI.identify(dir + "/label.png"))
        let output = try #require((r.reports.first?["outputs"] as? [[String: Any]])?.first)
        #expect(output["width"] as? Int == info.width && output["height"] as? Int == info.height)
        // One line of 48 px text plus 2 × 12 padding.
        #expect(info.height >= 48 + 24 && info.height < 2 * 48 + 24)
        let raw = try #require(CLI.tool("/usr/bin/convert", [dir + "/label.png", "-depth", "8", "rgba:-"]))
        let px = [UInt8](raw)
        var ink = 0, saturated = 0
        var translucent = 0
        for i in stride(from: 0, to: px.count, by: 4) {
            let r = Int(px[i]), g = Int(px[i + 1]), b = Int(px[i + 2])
            let x = (i / 4) % info.width, y = (i / 4) / info.width
            // The background is opaque but for the last, partly covered column and row.
            if x < info.width - 1 && y < info.height - 1 && px[i + 3] != 255 { translucent += 1 }
            if r < 80 && g < 80 && b < 100 { ink += 1 }
            if max(r, g, b) - min(r, g, b) > 60 { saturated += 1 }  // the skin-toned emoji
        }
        #expect(translucent == 0)
        #expect(ink > 2000, "dark text pixels: \(ink)")
        #expect(saturated > 300, "coloured emoji pixels: \(saturated)")
    }

    /// Every script the installed fonts cover renders without a missing-glyph warning.
    @Test(arguments: ["안녕하세요", "สวัสดีครับ", "नमस्ते दुनिया", "שלום עולם", "Привет, мир", "你好，世界", "Γειά σου"])
    func scriptHasAFont(text: String) throws {
        let dir = try CLI.temporaryFolder("script")
        try #"{"sumi": 1, "params": {"text": {"type": "string"}}, "stages": [{"stage": "text", "with": {"text": "${text}", "size": 32}}, {"stage": "encode", "with": {"path": "\#(dir)/t.png"}}]}"#
            .write(toFile: dir + "/t.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["run", dir + "/t.json", "--set", "text=\(text)"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(text): \(r.stderr)")
        #expect((CLI.identify(dir + "/t.png")?.width ?? 0) > 32)
    }
}
