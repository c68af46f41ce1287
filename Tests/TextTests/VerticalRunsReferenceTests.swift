import SumiKit
import Testing
@testable import SumiText

/// Sideways runs in vertical columns against `hb-shape`: each run is shaped in its own script (a
/// Mongolian word after Latin letters or digits keeps its joining forms) and its own direction (a
/// sideways Arabic word keeps its letters in order, reading bottom to top once turned).
@Suite struct VerticalRunsReferenceTests {
    static let mongolian = "/usr/share/fonts/truetype/noto/NotoSansMongolian-Regular.ttf"

    func column(_ text: String, font: String) throws -> [PlacedGlyph] {
        try TextTestSupport.content(["text": .string(text), "font": .string(font), "size": .number(30),
                                     "writing-mode": .string("vertical-rl")]).layout.glyphs
    }

    /// The glyphs of `face` in the column, top to bottom.
    func glyphs(_ column: [PlacedGlyph], inFont path: String) -> [Int] {
        column.filter { TextTestSupport.fileName($0.face.path) == TextTestSupport.fileName(path) }
            .sorted { $0.y < $1.y }.map { Int($0.glyph) }
    }

    @Test(arguments: ["ABC ᠮᠣᠩᠭᠣᠯ", "2024 ᠮᠣᠩᠭᠣᠯ", "ᠮᠣᠩᠭᠣᠯ"])
    func mongolianAfterLatinKeepsItsJoining(text: String) throws {
        let word = "ᠮᠣᠩᠭᠣᠯ"
        let joined = try TextTestSupport.hbShape(font: Self.mongolian, text: word, extra: ["--script=mong"]).map(\.g)
        let unjoined = try TextTestSupport.hbShape(font: Self.mongolian, text: word, extra: ["--script=latn"]).map(\.g)
        try #require(joined != unjoined, "the font joins Mongolian only when told the script")
        let ours = glyphs(try column(text, font: "Noto Sans Mongolian"), inFont: Self.mongolian)
        // The space may be drawn in the Mongolian font too: compare the word's glyphs.
        #expect(Array(ours.suffix(joined.count)) == joined, "\(text): \(ours) vs hb-shape --script=mong \(joined)")
    }

    @Test(arguments: ["مرحبا بالعالم", "東京مرحبا"])
    func sidewaysArabicKeepsItsLettersInOrder(text: String) throws {
        var arabic = String.UnicodeScalarView()
        arabic.append(contentsOf: text.unicodeScalars.filter { (0x0600...0x06FF).contains($0.value) || $0 == " " })
        // hb-shape --direction=rtl lists glyphs left to right as drawn: turned clockwise, top to bottom.
        let reference = try TextTestSupport.hbShape(font: TextTestSupport.notoArabic, text: String(arabic), extra: ["--direction=rtl"]).map(\.g)
        let ours = glyphs(try column(text, font: TextTestSupport.notoArabic), inFont: TextTestSupport.notoArabic)
        #expect(ours == reference, "\(text): \(ours) vs hb-shape --direction=rtl \(reference)")
        #expect(ours != reference.reversed())
    }
}
