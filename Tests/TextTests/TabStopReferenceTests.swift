import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Tab stops against Pango (`pango-view`, whose default stops are every 8 spaces of the font): the
/// glyphs after tabs start where pango's do.
@Suite struct TabStopReferenceTests {
    /// The pen position (px) at which each glyph of the first line starts, from pango's serialised
    /// layout, with the glyph's text offset (UTF-8 bytes within its run plus the run's offset).
    static func pangoPositions(_ text: String, font: String, size: Double) throws -> [(offset: Int, x: Double)] {
        let out = TextTestSupport.tempDirectory + "/pango-tabs-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: out + ".png") }
        _ = try TextTestSupport.run("/usr/bin/pango-view", [
            "--no-display", "--dpi=72", "--hinting=none", "--subpixel-positions", "--font=\(font) \(TextTestSupport.formatPx(size))px",
            "--serialize-to=\(out)", "-o", out + ".png", "-t", text])
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let output = json["output"] as? [String: Any], let lines = output["lines"] as? [[String: Any]],
              let runs = lines.first?["runs"] as? [[String: Any]] else { throw TextTestSupport.TestFailure("pango-view gave no layout") }
        var x = 0.0, result: [(Int, Double)] = []
        for run in runs {
            let offset = run["offset"] as? Int ?? 0
            for glyph in run["glyphs"] as? [[String: Any]] ?? [] {
                result.append((offset + (glyph["log-cluster"] as? Int ?? 0), x))
                x += Double(glyph["width"] as? Int ?? 0) / 1024
            }
        }
        return result
    }

    @Test(arguments: ["ab\tc\td", "Name\tQty\tPrice", "a\t\tb", "Wide text here\tx", "mmmmm\tx"])
    func glyphsAfterTabsStartWherePangosDo(text: String) throws {
        let size = 20.0
        let content = try TextTestSupport.content(["text": .string(text), "font": .string(TextTestSupport.dejaVu), "size": .number(size)])
        let pango = try Self.pangoPositions(text, font: "DejaVu Sans", size: size)
        // All ASCII: byte offsets are scalar offsets, one glyph per character in both.
        let ours = content.layout.glyphs.map { (offset: $0.cluster, x: $0.x) }
        let tabs = Set(text.unicodeScalars.enumerated().filter { $0.element == "\t" }.map(\.offset))
        let theirs = pango.filter { !tabs.contains($0.offset) }
        let mine = ours.filter { !tabs.contains($0.offset) }
        try #require(mine.count == theirs.count && mine.count == text.count - tabs.count, "\(mine.count) vs \(theirs.count) glyphs")
        for (a, b) in zip(mine, theirs) {
            #expect(a.offset == b.offset)
            #expect(abs(a.x - b.x) < 0.05, "\"\(text)\": glyph at offset \(a.offset) starts at \(a.x) px, pango \(b.x) px")
        }
    }
}
