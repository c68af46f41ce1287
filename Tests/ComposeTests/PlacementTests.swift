import Testing
import SumiKit
import SumiCompose

/// A placement case and its expected layer rectangle in base pixels, worked out the way one would by
/// hand: size of the image on screen, where it sits in the frame, then "frame units × pixels per unit".
struct PlacementCase: CustomTestStringConvertible, Sendable {
    var base: (Int, Int)
    var frame: (Double, Double)
    var fit: String
    var anchor: String
    var offset: (Double, Double)
    var layer: (Double, Double)

    var testDescription: String {
        "\(base.0)x\(base.1) in \(frame.0)x\(frame.1) \(fit) \(anchor) \(offset) layer \(layer)"
    }

    /// The fraction of width and height at which the anchor lies, from the top-left.
    var anchorFraction: (Double, Double) {
        let table: [String: (Double, Double)] = [
            "top-left": (0, 0), "top": (0.5, 0), "top-right": (1, 0),
            "left": (0, 0.5), "center": (0.5, 0.5), "right": (1, 0.5),
            "bottom-left": (0, 1), "bottom": (0.5, 1), "bottom-right": (1, 1),
        ]
        return table[anchor] ?? (0.5, 0.5)
    }

    /// The expected layer rectangle in base pixels: x, y, width, height.
    var expected: (Double, Double, Double, Double) {
        let (bw, bh) = (Double(base.0), Double(base.1))
        let (fw, fh) = frame
        // On-screen size of the image.
        let imageIsWider = bw * fh > bh * fw
        var shown: (Double, Double)
        switch fit {
        case "contain": shown = imageIsWider ? (fw, fw * bh / bw) : (fh * bw / bh, fh)
        case "cover": shown = imageIsWider ? (fh * bw / bh, fh) : (fw, fw * bh / bw)
        default: shown = (fw, fh)
        }
        let shownLeft = (fw - shown.0) / 2, shownTop = (fh - shown.1) / 2
        // The area the anchor refers to, on screen.
        let area = fit == "cover" ? (0.0, 0.0, fw, fh) : (shownLeft, shownTop, shown.0, shown.1)
        let (ax, ay) = anchorFraction
        let left = area.0 + ax * area.2 - ax * layer.0 + offset.0
        let top = area.1 + ay * area.3 - ay * layer.1 + offset.1
        // Screen → photo pixels.
        let perUnitX = bw / shown.0, perUnitY = bh / shown.1
        return ((left - shownLeft) * perUnitX, (top - shownTop) * perUnitY, layer.0 * perUnitX, layer.1 * perUnitY)
    }
}

@Suite struct PlacementTests {
    static let story = PlacementCase(base: (3000, 2002), frame: (390, 260), fit: "contain", anchor: "center",
                                     offset: (40, -30), layer: (120, 51))

    static let cases: [PlacementCase] = {
        var list = [story]
        let anchors = ["center", "top-left", "top", "top-right", "left", "right", "bottom-left", "bottom", "bottom-right"]
        let offsets: [(Double, Double)] = [(0, 0), (12.5, -7.25), (-20, 15)]
        for (i, fit) in ["contain", "cover", "fill"].enumerated() {
            for (j, anchor) in anchors.enumerated() {
                // Alternate a wide and a tall photo so both letterbox directions are covered.
                let base = (i + j) % 2 == 0 ? (640, 400) : (360, 520)
                list.append(PlacementCase(base: base, frame: (300, 250), fit: fit, anchor: anchor,
                                          offset: offsets[(i + j) % 3], layer: (47.5, 21)))
            }
        }
        return list
    }()

    @Test(arguments: cases)
    func placementMatchesPreview(_ c: PlacementCase) throws {
        let base = TestSupport.solid(c.base.0, c.base.1, .white)
        let box = BoxLayer(size: Size(width: c.layer.0, height: c.layer.1), fill: .init(red: 255, green: 0, blue: 0),
                           border: .black)
        let (layer, out) = try TestSupport.placeAndBlend(
            base: base, layer: .layer(Layer(content: box)),
            place: ["frame": .size(Size(width: c.frame.0, height: c.frame.1)), "fit": .string(c.fit),
                    "anchor": .string(c.anchor), "offset": .point(Point(x: c.offset.0, y: c.offset.1))])
        let (ex, ey, ew, eh) = c.expected

        // The placement itself, in exact arithmetic terms.
        #expect(abs(layer.placement.origin.x - ex) < 1e-6)
        #expect(abs(layer.placement.origin.y - ey) < 1e-6)
        #expect(abs(layer.bounds.width - ew) < 1e-6)
        #expect(abs(layer.bounds.height - eh) < 1e-6)

        // The drawn box, measured in the output, clipped to the image.
        let box0 = try #require(TestSupport.changedBox(out, from: base))
        let clip = (max(0, ex), max(0, ey), min(Double(c.base.0), ex + ew), min(Double(c.base.1), ey + eh))
        #expect(abs(Double(box0.x0) - clip.0) <= 1, "left \(box0.x0) vs \(clip.0)")
        #expect(abs(Double(box0.y0) - clip.1) <= 1, "top \(box0.y0) vs \(clip.1)")
        #expect(abs(Double(box0.x1) - clip.2) <= 1, "right \(box0.x1) vs \(clip.2)")
        #expect(abs(Double(box0.y1) - clip.3) <= 1, "bottom \(box0.y1) vs \(clip.3)")
    }

    /// The caption story in plain numbers: 2002 / 260 = 7.7 pixels per point, centre (1500, 1001),
    /// 40 points right and 30 up.
    @Test func captionStoryNumbers() throws {
        let c = Self.story
        let base = TestSupport.solid(3000, 2002, .white)
        let box = BoxLayer(size: Size(width: 120, height: 51), fill: .white, border: .black)
        let layer = try TestSupport.placed(StageHarness(PlaceStage.self).run(
            ["frame": .size(Size(width: 390, height: 260)), "offset": .point(Point(x: 40, y: -30))],
            inputs: ["base": .image(base), "layer": .layer(Layer(content: box))]))
        #expect(abs(layer.placement.scaleX - 7.7) < 1e-12 && abs(layer.placement.scaleY - 7.7) < 1e-12)
        #expect(abs(layer.placement.origin.x - (1500 + 40 * 7.7 - 60 * 7.7)) < 1e-9)
        #expect(abs(layer.placement.origin.y - (1001 - 30 * 7.7 - 25.5 * 7.7)) < 1e-9)
        #expect(c.expected.2 > 923 && c.expected.2 < 925)
    }

    /// Without a frame, frame units are base pixels: an image layer keeps its size.
    @Test func defaultFrameIsBasePixels() throws {
        let base = TestSupport.solid(200, 100, .white)
        let stamp = TestSupport.solid(20, 10, .black)
        let (layer, out) = try TestSupport.placeAndBlend(
            base: base, layer: .image(stamp), place: ["anchor": .string("bottom-right"), "offset": .point(Point(x: -5, y: -5))])
        #expect(layer.placement == Placement(origin: Point(x: 175, y: 85), scaleX: 1, scaleY: 1))
        let box = try #require(TestSupport.changedBox(out, from: base))
        #expect(box.x0 == 175 && box.y0 == 85 && box.x1 == 195 && box.y1 == 95)
    }

    /// `fill` stretches the layer with the image: separate horizontal and vertical factors.
    @Test func fillScalesAxesSeparately() throws {
        let base = TestSupport.solid(400, 100, .white)
        let layer = try TestSupport.placed(StageHarness(PlaceStage.self).run(
            ["frame": .size(Size(width: 100, height: 100)), "fit": .string("fill"), "anchor": .string("top-left")],
            inputs: ["base": .image(base), "layer": .image(TestSupport.solid(10, 10, .black))]))
        #expect(layer.placement.scaleX == 4 && layer.placement.scaleY == 1)
        #expect(layer.bounds == Rect(x: 0, y: 0, width: 40, height: 10))
    }

    @Test func mappingGeometry() throws {
        let m = try #require(PreviewMapping(baseSize: Size(width: 3000, height: 2002), frame: Size(width: 390, height: 260), fit: .contain))
        let shown = m.displayedImage
        #expect(abs(shown.height - 260) < 1e-9 && abs(shown.width - 3000 / 7.7) < 1e-9)
        let p = m.basePoint(fromFrame: Point(x: 195, y: 130))
        #expect(abs(p.x - 1500) < 1e-9 && abs(p.y - 1001) < 1e-9)
        let cover = try #require(PreviewMapping(baseSize: Size(width: 400, height: 200), frame: Size(width: 100, height: 100), fit: .cover))
        #expect(cover.scaleX == 2 && cover.visibleAreaInBase == Rect(x: 100, y: 0, width: 200, height: 200))
        #expect(PreviewMapping(baseSize: Size(width: 10, height: 10), frame: Size(width: 0, height: 0), fit: .fill) == nil)
        // One side of 0 follows the image (PreviewFrameTests).
        #expect(PreviewMapping(baseSize: Size(width: 10, height: 10), frame: Size(width: 0, height: 5), fit: .fill)?.frame == Size(width: 5, height: 5))
    }
}
