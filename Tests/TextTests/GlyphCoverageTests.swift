import SumiKit
import Testing
@testable import SumiText

/// Glyphs are gathered into one coverage mask and coloured once: a translucent colour keeps its
/// alpha where glyphs overlap, and a colour emoji's shadow is its silhouette in the shadow's colour.
@Suite struct GlyphCoverageTests {
    static let blue = Color(red: 0, green: 0, blue: 255)

    func image(_ text: String, font: String, _ extra: [String: ParamValue]) throws -> Image {
        var parameters: [String: ParamValue] = ["text": .string(text), "font": .string(font), "size": .number(48)]
        for (k, v) in extra { parameters[k] = v }
        return try TextTestSupport.content(parameters).rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
    }

    /// Devanagari (marks over and under their bases, conjuncts, touching headlines) and Nastaliq
    /// (letters stacked on a slant) at #0000ff80 are the opaque text's coverage at alpha 128: every
    /// pixel within rounding of the opaque one scaled by 128/255, none darker where glyphs overlap.
    @Test(arguments: [("नमस्ते दुनिया क्षत्रिय स्त्री", "Noto Sans Devanagari"),
                      ("نستعلیق خوشخطی", "Noto Nastaliq Urdu")])
    func translucentColourIsAppliedOnceOverOverlappingGlyphs(text: String, font: String) throws {
        let opaque = try image(text, font: font, ["color": .color(Self.blue)])
        var half = Self.blue
        half.alpha = 128
        let translucent = try image(text, font: font, ["color": .color(half)])
        try #require(opaque.width == translucent.width && opaque.height == translucent.height)
        var inked = 0, worst = 0, full = 0
        for i in 0..<(opaque.width * opaque.height) {
            let a = Int(opaque.pixels[i * 4 + 3]), b = Int(translucent.pixels[i * 4 + 3])
            if a > 0 { inked += 1 }
            if a == 255 { full += 1 }
            worst = max(worst, abs(b - (a * 128 + 127) / 255))
        }
        #expect(inked > 1000 && full > 100, "\(font): \(inked) inked pixels, \(full) fully covered")
        #expect(worst <= 1, "\(font): a translucent pixel differs by \(worst) from the opaque coverage × 128/255")
        let alphas = (0..<(translucent.width * translucent.height)).map { translucent.pixels[$0 * 4 + 3] }
        #expect(alphas.max() == 128)
    }

    /// A translucent outline under an opaque fill: the outline's own overlaps do not darken it either.
    @Test func translucentOutlineIsAppliedOnce() throws {
        var half = Self.blue
        half.alpha = 128
        let outlined = try image("क्षत्रिय", font: "Noto Sans Devanagari",
                                 ["color": .color(.transparent), "stroke": .number(3), "stroke-color": .color(half)])
        let alphas = (0..<(outlined.width * outlined.height)).map { outlined.pixels[$0 * 4 + 3] }
        #expect(alphas.max() == 128)
        #expect(alphas.filter { $0 == 128 }.count > 500)
    }

    /// The shadow of a colour emoji (moved 8 px right and down) is the emoji's silhouette in blue:
    /// every shadow pixel beside the emoji is pure blue (against the same layer with an invisible
    /// shadow, so the emoji is where it was), and unblurred its ink is the emoji's ink moved.
    @Test(arguments: [0.0, 3.0])
    func colourEmojiShadowIsItsSilhouetteInTheShadowColour(blur: Double) throws {
        let plain = try image("😀", font: "Noto Color Emoji", ["shadow": .string("8, 8, \(blur), #0000ff00")])
        let shadowed = try image("😀", font: "Noto Color Emoji", ["shadow": .string("8, 8, \(blur), #0000ff")])
        try #require(plain.width == shadowed.width && plain.height == shadowed.height)
        var shadowOnly = 0, notBlue: [(Int, Int)] = []
        for y in 0..<shadowed.height {
            for x in 0..<shadowed.width {
                let emoji = x < plain.width && y < plain.height ? plain.pixels[(y * plain.width + x) * 4 + 3] : 0
                let i = (y * shadowed.width + x) * 4
                guard emoji == 0, shadowed.pixels[i + 3] > 0 else { continue }
                shadowOnly += 1
                let p = shadowed.pixels
                if p[i] != 0 || p[i + 1] != 0 || p[i + 2] != p[i + 3] { notBlue.append((x, y)) }
            }
        }
        TextTestSupport.savePNG(shadowed, TextTestSupport.tempDirectory + "/emoji-shadow-\(blur).png")
        #expect(notBlue.isEmpty, "\(notBlue.count) shadow pixels are not blue, first at \(notBlue.first.map { "\($0)" } ?? "")")
        #expect(shadowOnly > 300, "\(shadowOnly) shadow pixels beside the emoji")
        if blur == 0 {
            // Unblurred, the shadow's silhouette is the emoji's, 8 px down and right (its baseline
            // on a whole pixel of its own: within a pixel).
            let inkPlain = try #require(TextTestSupport.inkBounds(plain, threshold: 128))
            let inkShadow = try #require(TextTestSupport.inkBounds(shadowed, threshold: 128))
            #expect(abs(inkShadow.x.upperBound - inkPlain.x.upperBound - 8) <= 1 && abs(inkShadow.y.upperBound - inkPlain.y.upperBound - 8) <= 1,
                    "emoji ink \(inkPlain), with its shadow \(inkShadow), in \(shadowed.width)x\(shadowed.height)")
        }
    }
}
