import SumiKit
import Testing
@testable import SumiText

/// A translucent colour against HarfBuzz's own renderer (`hb-view`, cairo, which adds glyph masks
/// before it paints): the same greatest alpha, the colour's, and the same amount of ink.
@Suite struct TranslucentTextReferenceTests {
    @Test(arguments: ["नमस्ते दुनिया क्षत्रिय स्त्री"])
    func translucentDevanagariMatchesHBView(text: String) throws {
        let out = TextTestSupport.tempDirectory + "/hb-view-translucent.png"
        _ = try TextTestSupport.run("/usr/bin/hb-view", ["--font-size=48", "--margin=0", "--foreground=0000ff80",
                                                         "--background=00000000", "-O", "png", "-o", out,
                                                         TextTestSupport.notoDevanagari, text])
        let theirs = try TextTestSupport.runData("/usr/bin/convert", [out, "-channel", "A", "-separate", "-depth", "8", "gray:-"])
        var half = Color(red: 0, green: 0, blue: 255)
        half.alpha = 128
        let image = try TextTestSupport.content(["text": .string(text), "font": .string(TextTestSupport.notoDevanagari),
                                                 "size": .number(48), "color": .color(half)])
            .rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let ours = (0..<(image.width * image.height)).map { image.pixels[$0 * 4 + 3] }
        try #require(theirs.count > 1000)
        #expect(theirs.max() == 128 && ours.max() == 128, "greatest alpha: hb-view \(theirs.max() ?? 0), Sumi \(ours.max() ?? 0)")
        let inkTheirs = theirs.reduce(0) { $0 + Int($1) }, inkOurs = ours.reduce(0) { $0 + Int($1) }
        #expect(abs(Double(inkOurs) / Double(inkTheirs) - 1) < 0.03, "ink: Sumi \(inkOurs), hb-view \(inkTheirs)")
    }
}
