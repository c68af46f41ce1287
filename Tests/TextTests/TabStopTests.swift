import SumiKit
import Testing
@testable import SumiText

/// Tabs (`tab-size`): a tab moves to the next stop, stops every `tab-size` spaces of the primary font
/// from the line's start edge; line filling counts the room a tab takes.
@Suite struct TabStopTests {
    func content(_ text: String, _ extra: [String: ParamValue] = [:]) throws -> TextLayerContent {
        var parameters: [String: ParamValue] = ["text": .string(text), "font": .string(TextTestSupport.dejaVu), "size": .number(20)]
        for (k, v) in extra { parameters[k] = v }
        return try TextTestSupport.content(parameters)
    }

    /// The advance of one space, and of `text` alone, in layout units.
    func width(_ text: String) throws -> Double { try content(text).layout.lines[0].width }

    @Test func tabsReachTheNextStop() throws {
        let space = try width("a b") - width("ab")
        try #require(space > 5 && space < 8)
        // "ab" is under 8 spaces: c starts at the first stop, then d at the second.
        let glyphs = try content("ab\tc\td").layout.glyphs
        try #require(glyphs.count == 6)
        #expect(abs(glyphs[3].x - 8 * space) < 1e-6, "c at \(glyphs[3].x), stop at \(8 * space)")
        #expect(abs(glyphs[5].x - 16 * space) < 1e-6)
        // Text already past a stop goes on to the next one.
        let long = try content("abcdefghijkl\tx").layout.glyphs
        let before = try width("abcdefghijkl")
        try #require(before > 16 * space && before < 23 * space)
        #expect(abs(long[13].x - 24 * space) < 1e-6)
        // A tab takes at least a space: text less than a space short of a stop goes to the one after.
        let near = try content("mmmmm\tx").layout.glyphs
        let short = try width("mmmmm")
        try #require(short > 15 * space && short < 16 * space, "\(short / space) spaces")
        #expect(abs(near[6].x - 24 * space) < 1e-6, "x at \(near[6].x / space) spaces")
        // tab-size sets the distance between stops; at 0 a tab takes no room.
        #expect(abs(try content("a\tc", ["tab-size": .number(4)]).layout.glyphs[2].x - 4 * space) < 1e-6)
        #expect(abs(try content("ab\tc", ["tab-size": .number(0)]).layout.glyphs[3].x - width("ab")) < 1e-6)
    }

    /// In a right-to-left paragraph the stops are counted from the right edge.
    @Test func rightToLeftTabsCountFromTheRight() throws {
        let hebrew = ["font": ParamValue.string("DejaVu Sans")]
        let space = try content("א ב", hebrew).layout.lines[0].width - content("אב", hebrew).layout.lines[0].width
        let line = try content("אב\tגד", hebrew).layout.lines[0]
        let after = try content("גד", hebrew).layout.lines[0].width
        #expect(line.isRightToLeft)
        #expect(abs(line.width - (8 * space + after)) < 1e-6, "line \(line.width), expected \(8 * space + after)")
    }

    /// Filling lines counts a tab's room up to its stop: "ab⇥cd" fits a width just over its tabbed
    /// length and not one just under it.
    @Test func lineFillingCountsTheTabStop() throws {
        let space = try width("a b") - width("ab")
        let tabbed = 8 * space + (try width("cd"))
        #expect(try content("ab\tcd", ["width": .number(tabbed + 0.5)]).lineCount == 1)
        #expect(try content("ab\tcd", ["width": .number(tabbed - 0.5)]).lineCount == 2)
    }

    /// In a vertical column the stops run down the column from its top.
    @Test func verticalTabsRunDownTheColumn() throws {
        let vertical: [String: ParamValue] = ["font": .string(TextTestSupport.ipaGothic), "writing-mode": .string("vertical-rl")]
        let tabbed = try content("東\t京", vertical).layout.glyphs
        let space = try content("a b", ["font": .string(TextTestSupport.ipaGothic)]).layout.lines[0].width
            - content("ab", ["font": .string(TextTestSupport.ipaGothic)]).layout.lines[0].width
        try #require(tabbed.count == 3 && space > 0)
        #expect(abs(tabbed[2].y - tabbed[0].y - 8 * space) < 1e-6, "京 \(tabbed[2].y - tabbed[0].y) below 東, stop at \(8 * space)")
        #expect(abs(tabbed[2].x - tabbed[0].x) < 1e-6)
    }
}
