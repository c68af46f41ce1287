import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Vertical writing (vertical-rl): HarfBuzz top-to-bottom shaping checked against hb-shape, columns
/// right to left, wrapping by column length with kinsoku, Latin turned sideways or set upright.
@Suite struct VerticalTextTests {
    func vertical(_ text: String, width: Double? = nil, _ extra: [String: ParamValue] = [:]) throws -> TextLayerContent {
        var params: [String: ParamValue] = ["text": .string(text), "font": .string(TextTestSupport.ipaGothic),
                                            "size": .number(20), "writing-mode": .string("vertical-rl")]
        if let width { params["width"] = .number(width) }
        for (k, v) in extra { params[k] = v }
        return try TextTestSupport.content(params)
    }

    /// hb-shape --direction=ttb: glyph ids and vertical advances (font units).
    func hbShapeTTB(_ text: String) throws -> [(g: Int, ay: Int)] {
        let out = try TextTestSupport.run("/usr/bin/hb-shape", ["--output-format=json", "--no-glyph-names",
                                                                "--direction=ttb", TextTestSupport.ipaGothic, text])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]] ?? []
        return json.map { ($0["g"] as? Int ?? -1, $0["ay"] as? Int ?? 0) }
    }

    @Test func columnsRunRightToLeftAndWrapByLengthWithKinsoku() throws {
        let text = "あいうえお。かきくけこ、さしすせそ"
        let content = try vertical(text, width: 100)
        let columns = content.layout.lines
        #expect(columns.count >= 3)
        #expect(zip(columns, columns.dropFirst()).allSatisfy { $0.x > $1.x }, "the first column is rightmost")
        #expect(columns.map(\.text).joined() == text)
        for (i, c) in columns.enumerated() {
            #expect(i == 0 || !["。", "、"].contains(c.text.first ?? " "), "column starts with \(c.text)")
            let hangs = c.text.last == "。" || c.text.last == "、"
            #expect(c.width <= 100 + (hangs ? 20 : 0) + 0.001)
        }
        #expect(abs(content.layout.width - Double(columns.count) * columns[0].height) < 1e-6)
        // Every glyph of a column starts in it: an em-wide glyph from its left edge.
        for c in columns {
            for g in content.layout.glyphs[c.glyphRange] { #expect(g.x >= c.x - 0.01 && g.x + 20 <= c.x + c.height + 0.01) }
        }
    }

    @Test func latinTurnsSidewaysOrStandsUpright() throws {
        let mixed = try vertical("東京ABC")
        #expect(mixed.layout.glyphs.map(\.rotated) == [false, false, true, true, true])
        let upright = try vertical("東京ABC", ["text-orientation": .string("upright")])
        #expect(upright.layout.glyphs.allSatisfy { !$0.rotated })
        // Sideways Latin is drawn across the column: its ink is wider than tall per letter, and
        // nothing is cut at padding 0.
        for content in [mixed, upright] {
            let tight = try content.rasterize(scaleX: 2, scaleY: 2, phase: Point(x: 0, y: 0))
            let ink = try #require(TextTestSupport.inkBounds(tight))
            #expect(ink.x.lowerBound >= 0 && ink.y.upperBound <= tight.height)
        }
        let tall = TextTestSupport.inkBounds(try mixed.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0)))
        #expect((tall?.y.count ?? 0) > (tall?.x.count ?? 0) * 3, "a column is tall and narrow")
        // The sideways letters follow the ideographs without overlapping them.
        let glyphs = mixed.layout.glyphs
        #expect(glyphs[2].y >= glyphs[1].y + 20 * 0.1 - 1e-6 && glyphs[3].y > glyphs[2].y)
    }

    @Test func noInkIsCutInVerticalText() throws {
        func ink(_ padding: Double) throws -> Int {
            let img = try vertical("「縦書き」Sumi、ぁ", width: 120, ["padding": .number(padding)])
                .rasterize(scaleX: 2, scaleY: 2, phase: Point(x: 0, y: 0))
            var sum = 0
            for i in stride(from: 3, to: img.pixels.count, by: 4) { sum += Int(img.pixels[i]) }
            return sum
        }
        let tight = try ink(0), roomy = try ink(30)
        #expect(abs(Double(roomy - tight)) / Double(roomy) < 0.002)
    }
}
