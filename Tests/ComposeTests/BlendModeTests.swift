import Testing
import SumiKit
import SumiCompose

/// Each mode against the W3C formulas evaluated in floating point on straight colours:
/// `co = αs(1−αb)Cs + αsαb·B(Cb, Cs) + (1−αs)αb·Cb`, `αo = αs + αb(1−αs)`; `add` is Porter-Duff plus.
@Suite struct BlendModeTests {
    /// Straight colour channels of sources and backdrops, kept away from overlay's ½ threshold.
    static let sources: [Color] = [
        Color(red: 200, green: 40, blue: 120, alpha: 160),
        Color(red: 250, green: 10, blue: 90, alpha: 255),
        Color(red: 30, green: 220, blue: 160, alpha: 64),
    ]
    static let backdrops: [Color] = [
        Color(red: 90, green: 180, blue: 30, alpha: 255),
        Color(red: 90, green: 180, blue: 30, alpha: 100),
        Color(red: 230, green: 20, blue: 100, alpha: 200),
    ]

    static func blendFunction(_ mode: String, _ cb: Double, _ cs: Double) -> Double {
        switch mode {
        case "multiply": return cb * cs
        case "screen": return cb + cs - cb * cs
        case "overlay": return cb <= 0.5 ? cs * 2 * cb : (cs + (2 * cb - 1)) - cs * (2 * cb - 1)
        case "darken": return min(cb, cs)
        case "lighten": return max(cb, cs)
        default: return cs
        }
    }

    /// The expected premultiplied result (0…255 doubles) from premultiplied byte inputs.
    static func reference(_ mode: String, source s: [UInt8], backdrop b: [UInt8], opacity: Double) -> [Double] {
        let sa = Double(s[3]) / 255 * opacity, ba = Double(b[3]) / 255
        var out = [Double](repeating: 0, count: 4)
        for c in 0..<3 {
            let cs = s[3] == 0 ? 0 : Double(s[c]) / Double(s[3])
            let cb = b[3] == 0 ? 0 : Double(b[c]) / Double(b[3])
            if mode == "add" {
                out[c] = min(1, sa * cs + ba * cb)
            } else {
                out[c] = sa * (1 - ba) * cs + sa * ba * blendFunction(mode, cb, cs) + (1 - sa) * ba * cb
            }
        }
        out[3] = mode == "add" ? min(1, sa + ba) : sa + ba * (1 - sa)
        return out.map { $0 * 255 }
    }

    static func bytes(_ color: Color) -> [UInt8] {
        let p = color.premultiplied
        return [p.0, p.1, p.2, p.3]
    }

    @Test(arguments: BlendMode.allCases.map(\.rawValue), [1.0, 0.5])
    func modeMatchesReference(mode: String, opacity: Double) throws {
        // One pixel per (source, backdrop) pair, in a row.
        let pairs = Self.sources.flatMap { s in Self.backdrops.map { b in (s, b) } }
        let layerImage = Image(width: pairs.count, height: 1, pixels: pairs.flatMap { Self.bytes($0.0) })
        let base = Image(width: pairs.count, height: 1, pixels: pairs.flatMap { Self.bytes($0.1) })
        let out = try StageHarness(BlendStage.self).runImage(
            ["mode": .string(mode), "opacity": .number(opacity)],
            inputs: ["base": .image(base), "layer": .image(layerImage)])
        for (i, pair) in pairs.enumerated() {
            let expected = Self.reference(mode, source: Self.bytes(pair.0), backdrop: Self.bytes(pair.1), opacity: opacity)
            let p = out.pixel(x: i, y: 0)
            let got = [p.r, p.g, p.b, p.a]
            for c in 0..<4 {
                #expect(abs(Double(got[c]) - expected[c]) <= 1.0,
                        "\(mode) opacity \(opacity) \(pair.0) over \(pair.1) channel \(c): got \(got[c]), expected \(expected[c])")
            }
        }
    }

    /// Exact cases: opaque `over` copies, transparent leaves the base, opacity 0 is a no-op.
    @Test func exactCases() throws {
        let base = TestSupport.noise(16, 8, seed: 7, minAlpha: 0)
        let opaque = TestSupport.noise(16, 8, seed: 9)
        let over = try StageHarness(BlendStage.self).runImage(inputs: ["base": .image(base), "layer": .image(opaque)])
        #expect(over.pixels == opaque.pixels)
        let clear = Image(width: 16, height: 8, fill: .transparent)
        for mode in BlendMode.allCases {
            let out = try StageHarness(BlendStage.self).runImage(["mode": .string(mode.rawValue)],
                                                                 inputs: ["base": .image(base), "layer": .image(clear)])
            #expect(out.pixels == base.pixels, "\(mode) with a transparent layer")
        }
        let none = try StageHarness(BlendStage.self).runImage(["opacity": .number(0)],
                                                              inputs: ["base": .image(base), "layer": .image(opaque)])
        #expect(none.pixels == base.pixels)
    }

    /// A list of images is drawn in order, each at the top-left.
    @Test func listOfImagesDrawsInOrder() throws {
        let base = TestSupport.solid(8, 8, .white)
        let red = TestSupport.solid(6, 6, Color(red: 255, green: 0, blue: 0))
        let blue = TestSupport.solid(3, 3, Color(red: 0, green: 0, blue: 255))
        let out = try StageHarness(BlendStage.self).runImage(inputs: ["base": .image(base), "layer": .images(ImageList([red, blue]))])
        #expect(out.color(x: 1, y: 1) == Color(red: 0, green: 0, blue: 255))
        #expect(out.color(x: 4, y: 4) == Color(red: 255, green: 0, blue: 0))
        #expect(out.color(x: 7, y: 7) == .white)
    }

    /// An opaque base stays opaque and keeps its metadata; a changed image drops pass-through bytes.
    @Test func metadataAfterBlend() throws {
        var meta = ImageMetadata(sourceFormat: "jpeg", sourceBytes: [1, 2, 3], knownOpaque: true)
        meta.sourcePath = "photo.jpg"
        let base = Image(width: 10, height: 10, fill: .white, metadata: meta)
        let out = try StageHarness(BlendStage.self).runImage(
            ["mode": .string("multiply")],
            inputs: ["base": .image(base), "layer": .image(TestSupport.noise(4, 4, seed: 3, minAlpha: 0))])
        #expect(out.metadata.sourceBytes == nil)
        #expect(out.metadata.knownOpaque && out.metadata.sourcePath == "photo.jpg")
        var i = 3
        while i < out.pixels.count { #expect(out.pixels[i] == 255); i += 4 }
    }
}
