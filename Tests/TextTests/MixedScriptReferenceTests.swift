import Foundation
import SumiKit
@testable import SumiText
import Testing

/// The mixed-script caption's Arabic word compared with hb-shape's isolated forms (`make test`).
@Suite struct MixedScriptReferenceTests {
    /// The Arabic word of mixedStringHasNoMissingGlyphsAndColourEmoji (MixedScriptTests) is joined:
    /// its glyphs are not the isolated forms of its letters as hb-shape gives them.
    @Test func arabicWordIsJoinedNotIsolated() throws {
        let mixed = MixedScriptTests().mixed
        let glyphs = try TextTestSupport.content(["text": .string(mixed), "size": .number(40)]).layout.glyphs
        let arabicStart = mixed.unicodeScalars.count - 5
        let arabic = glyphs.filter { $0.cluster >= arabicStart }
        let face = try #require(arabic.first?.face)
        var isolated: [Int] = []
        for letter in "مرحبا" { isolated += try TextTestSupport.hbShape(font: face.path, text: String(letter)).map(\.g) }
        #expect(arabic.map { Int($0.glyph) } != isolated.reversed())
        #expect(Set(arabic.map { Int($0.glyph) }) != Set(isolated))
    }
}
