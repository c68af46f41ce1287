import SumiKit
import Testing
@testable import SumiText

/// `letter-spacing` as CSS Text 3 asks: cursive scripts (Arabic, Mongolian...) keep their joined
/// forms and their advances, other scripts in the same paragraph are spaced.
@Suite struct LetterSpacingTests {
    static let arabic = "مرحبا بالعالم"
    static let notoMongolian = "/usr/share/fonts/truetype/noto/NotoSansMongolian-Regular.ttf"

    func layout(_ text: String, font: String, spacing: Double, _ extra: [String: ParamValue] = [:]) throws -> TextLayout {
        var parameters: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(24),
                                                "letter-spacing": .number(spacing)]
        parameters.merge(extra) { $1 }
        return try TextTestSupport.content(parameters).layout
    }

    /// Mongolian, cursive and set in vertical columns, keeps its advances along the column.
    @Test func mongolianColumnIsNotSpaced() throws {
        let text = "ᠮᠣᠩᠭᠣᠯ ᠪᠢᠴᠢᠭ"
        let vertical: [String: ParamValue] = ["writing-mode": .string("vertical-rl")]
        let spaced = try layout(text, font: Self.notoMongolian, spacing: 8, vertical)
        let plain = try layout(text, font: Self.notoMongolian, spacing: 0, vertical)
        #expect(spaced.glyphs.map(\.glyph) == plain.glyphs.map(\.glyph))
        #expect(zip(spaced.glyphs, plain.glyphs).allSatisfy { abs($0.y - $1.y) < 1e-9 && abs($0.x - $1.x) < 1e-9 })
        // Latin in the same column still is.
        let mixed = try layout("ab" + text, font: "Noto Sans Mongolian, DejaVu Sans", spacing: 8, vertical)
        let mixedPlain = try layout("ab" + text, font: "Noto Sans Mongolian, DejaVu Sans", spacing: 0, vertical)
        #expect(abs(mixed.lines[0].width - mixedPlain.lines[0].width - 2 * 8) < 1e-6)
    }

    @Test func inspectSaysCursiveScriptsAreNotSpaced() throws {
        let spec = try #require(TextStage.descriptor.parameters.first { $0.name == "letter-spacing" })
        #expect(spec.summary.contains("cursive") && spec.summary.contains("Arabic"))
    }
}
