import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Shaping checks that need no outside program (`make check`; ShapingReferenceTests compares with hb-shape).
@Suite struct ShapingTests {
    @Test func neutralParagraphFollowsThePreviousDirection() throws {
        let content = try TextTestSupport.content(["text": .string("مرحبا بالعالم\n123!\nHello"), "size": .number(20)])
        #expect(content.layout.lines.map(\.isRightToLeft) == [true, true, false])
        // Start alignment: the digits line sits at the right edge like the Arabic above it.
        let digits = content.layout.lines[1]
        #expect(abs(digits.x + digits.width - content.layout.width) < 0.001)
    }

    @Test func mixedDirectionLineIsReordered() throws {
        // Hebrew inside an English sentence: the Hebrew word's letters run right to left, the
        // English words stay left to right around it.
        let content = try TextTestSupport.content(["text": .string("abc שלום def"), "size": .number(20)])
        let glyphs = content.layout.glyphs
        func x(_ cluster: Int) throws -> Double { try #require(glyphs.first { $0.cluster == cluster }).x }
        #expect(try x(0) < x(1) && x(1) < x(2))          // a b c
        #expect(try x(4) > x(5) && x(5) > x(6) && x(6) > x(7)) // ש ל ו ם right to left
        #expect(try x(2) < x(7) && x(4) < x(9))           // abc | Hebrew | def
        let rtl = try TextTestSupport.content(["text": .string("abc שלום def"), "size": .number(20), "direction": .string("rtl")])
        let r = rtl.layout.glyphs
        func rx(_ cluster: Int) throws -> Double { try #require(r.first { $0.cluster == cluster }).x }
        #expect(try rx(9) < rx(4) && rx(4) < rx(0), "in an RTL paragraph 'def' is leftmost and 'abc' rightmost")
    }
}
