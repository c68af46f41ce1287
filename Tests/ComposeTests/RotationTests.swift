import Foundation
import Testing
import SumiKit
import SumiCompose
import SumiText

/// `place`'s `rotation`: a layer turned about the centre of its placed box, drawn turned as vectors
/// at its final scale (text outlines), or resampled once (a raster layer).
@Suite struct RotationTests {
    static let boldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

    static func caption(_ text: String, _ extra: [String: ParamValue] = [:]) throws -> Value {
        var parameters: [String: ParamValue] = ["text": .string(text), "font": .string(boldFont), "size": .number(17)]
        parameters.merge(extra) { $1 }
        return try StageHarness(TextStage.self).run(parameters)
    }

    /// Alpha-weighted centroid of pixel centres, and the orientation (degrees, clockwise from +x)
    /// of the alpha mass's major axis (from its second moments).
    static func moments(_ image: Image) -> (x: Double, y: Double, angle: Double, mass: Double) {
        var m = 0.0, mx = 0.0, my = 0.0, mxx = 0.0, myy = 0.0, mxy = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = Double(image.pixels[(y * image.width + x) * 4 + 3])
                guard a > 0 else { continue }
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                m += a; mx += a * px; my += a * py
                mxx += a * px * px; myy += a * py * py; mxy += a * px * py
            }
        }
        let cx = mx / m, cy = my / m
        let cxx = mxx / m - cx * cx, cyy = myy / m - cy * cy, cxy = mxy / m - cx * cy
        return (cx, cy, 0.5 * atan2(2 * cxy, cxx - cyy) * 180 / .pi, m)
    }

    /// `image` turned a quarter clockwise about its centre (pixel moves, no resampling).
    static func quarterTurn(_ image: Image) -> Image {
        let w = image.width, h = image.height
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let s = (y * w + x) * 4, d = (x * h + (h - 1 - y)) * 4
                for c in 0..<4 { out[d + c] = image.pixels[s + c] }
            }
        }
        return Image(width: h, height: w, pixels: out)
    }

    static func psnr(_ a: Image, _ b: Image) -> Double {
        var sum = 0.0
        for i in 0..<a.pixels.count {
            let d = Double(a.pixels[i]) - Double(b.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(a.pixels.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The 10–90 % edge width in pixels: pixels whose alpha is inside the transition, divided by the
    /// edges' length (Σ|∇α| / 255, which by the coarea formula is the perimeter of a unit-contrast
    /// shape whatever its orientation).
    static func edgeWidth(_ image: Image) -> Double {
        var partial = 0.0, perimeter = 0.0
        let w = image.width
        func alpha(_ x: Int, _ y: Int) -> Double { Double(image.pixels[(y * w + x) * 4 + 3]) }
        for y in 1..<(image.height - 1) {
            for x in 1..<(w - 1) {
                let a = alpha(x, y)
                if a > 25.5 && a < 229.5 { partial += 1 }
                let gx = (alpha(x + 1, y) - alpha(x - 1, y)) / 2, gy = (alpha(x, y + 1) - alpha(x, y - 1)) / 2
                perimeter += (gx * gx + gy * gy).squareRoot() / 255
            }
        }
        return partial / perimeter
    }

    /// Places a layer on a transparent base and blends it.
    static func placed(_ layer: Value, base: Image, _ place: [String: ParamValue]) throws -> (Layer, Image) {
        try TestSupport.placeAndBlend(base: base, layer: layer, place: place)
    }

    @Test func turnedCaptionInkLandsWhereThePlacementPutsIt() throws {
        let base = Image(width: 900, height: 700)
        let caption = try Self.caption("Sumi turns")
        // 900 px shown in a 150-unit frame: 6 pixels per unit; the caption's top-left corner at
        // (20, 30) units from the image's top-left, turned 30° about its box's centre.
        let place: [String: ParamValue] = ["frame": .size(Size(width: 150, height: 116.6667)), "anchor": .string("top-left"),
                                          "offset": .point(Point(x: 20, y: 30))]
        let (upright, flat) = try Self.placed(caption, base: base, place)
        var turnedPlace = place
        turnedPlace["rotation"] = .number(30)
        let (layer, turned) = try Self.placed(caption, base: base, turnedPlace)
        #expect(layer.placement.rotation == 30)
        #expect(layer.placement.origin == upright.placement.origin)

        let before = Self.moments(flat), after = Self.moments(turned)
        // The upright ink centroid, turned 30° clockwise about the box's centre.
        let box = upright.bounds
        let cx = box.x + box.width / 2, cy = box.y + box.height / 2
        let r = 30 * Double.pi / 180
        let ex = cx + cos(r) * (before.x - cx) - sin(r) * (before.y - cy)
        let ey = cy + sin(r) * (before.x - cx) + cos(r) * (before.y - cy)
        print("turned centroid \(after.x), \(after.y); expected \(ex), \(ey); axis \(before.angle)° → \(after.angle)°")
        // Baseline snapping moves the upright line by at most half a pixel.
        #expect(abs(after.x - ex) < 0.75 && abs(after.y - ey) < 0.75)
        #expect(abs(after.angle - before.angle - 30) < 1)
        #expect(abs(after.mass - before.mass) / before.mass < 0.01, "ink \(before.mass) → \(after.mass)")
        // The drawn area is the turned box's bounding box, not the upright box.
        let changed = try #require(TestSupport.changedBox(turned, from: base))
        let reach = layer.bounds
        #expect(Double(changed.x0) >= reach.x.rounded(.down) && Double(changed.x1) <= reach.maxX.rounded(.up))
        #expect(Double(changed.y1) > box.maxY + 10, "ink reaches below the upright box: \(changed)")
    }

    @Test func quarterTurnEqualsTheUprightRenderTurned() throws {
        // A boxed, outlined caption centred on a square base: turning the layer 90° about its centre
        // is turning the whole base about its centre.
        let base = Image(width: 600, height: 600)
        let caption = try Self.caption("Aa 東京 gy", ["background": .string("#ffcc00"), "border": .number(1),
                                                    "border-color": .string("#0000ff"), "padding": .number(3),
                                                    "stroke": .number(1), "stroke-color": .string("white")])
        let place: [String: ParamValue] = ["frame": .size(Size(width: 100, height: 100))]
        let (_, flat) = try Self.placed(caption, base: base, place)
        var turnedPlace = place
        turnedPlace["rotation"] = .number(90)
        let (_, turned) = try Self.placed(caption, base: base, turnedPlace)
        let reference = Self.quarterTurn(flat)
        let quality = Self.psnr(reference, turned)
        print("quarter turn: \(quality) dB against the upright render turned")
        #expect(quality > 40, "PSNR \(quality) dB")
        // −270° is the same turn.
        turnedPlace["rotation"] = .number(-270)
        let (_, again) = try Self.placed(caption, base: base, turnedPlace)
        #expect(again.pixels == turned.pixels)
    }

    /// At 7.7× a turned caption's edges are as narrow as an upright one's; turning the upright
    /// bitmap (resampled once, Lanczos-3) makes them measurably wider.
    @Test func turnedOutlinesStaySharpAtFinalScale() throws {
        let base = Image(width: 1100, height: 1100)
        let caption = try Self.caption("Sumi 墨 Rg", ["stroke": .number(1.5), "stroke-color": .string("black")])
        // 1100 px shown in a 142.857-unit frame: 7.7 pixels per unit.
        let place: [String: ParamValue] = ["frame": .size(Size(width: 1100 / 7.7, height: 1100 / 7.7))]
        let (uprightLayer, upright) = try Self.placed(caption, base: base, place)
        #expect(abs(uprightLayer.placement.scaleX - 7.7) < 1e-9)
        var turnedPlace = place
        turnedPlace["rotation"] = .number(30)
        let (_, turned) = try Self.placed(caption, base: base, turnedPlace)

        // The same caption drawn upright at 7.7×, then turned as a bitmap at scale 1.
        guard case .layer(let textLayer) = caption else { throw StageError("expected a layer") }
        let bitmap = try textLayer.content.rasterize(scaleX: 7.7, scaleY: 7.7, phase: Point(x: 0, y: 0))
        var bitmapPlace = turnedPlace
        bitmapPlace["frame"] = .size(Size(width: 1100, height: 1100))
        let (_, turnedBitmap) = try Self.placed(.image(bitmap), base: base, bitmapPlace)

        let u = Self.edgeWidth(upright), v = Self.edgeWidth(turned), b = Self.edgeWidth(turnedBitmap)
        print("10–90 % edge width: upright \(u) px, turned outlines \(v) px, turned bitmap \(b) px")
        #expect(v < u * 1.1, "turned outlines \(v) px vs upright \(u) px")
        #expect(b > v * 1.2, "turned bitmap \(b) px vs turned outlines \(v) px")
        // Same ink either way.
        let inkV = Self.moments(turned).mass, inkB = Self.moments(turnedBitmap).mass
        #expect(abs(inkV - inkB) / inkV < 0.02)
    }

    @Test func rasterLayerTurnsByResamplingOnce() throws {
        // A quarter turn of an image layer on whole pixels is an exact pixel move.
        let image = TestSupport.noise(40, 20, seed: 7)
        let base = Image(width: 100, height: 100)
        let (layer, out) = try Self.placed(.image(image), base: base, ["rotation": .number(90)])
        #expect(layer.bounds == Rect(x: 40, y: 30, width: 20, height: 40))
        let turned = Self.quarterTurn(image)
        for y in 0..<40 {
            for x in 0..<20 {
                let p = out.pixel(x: 40 + x, y: 30 + y), q = turned.pixel(x: x, y: y)
                let same = [p.r, p.g, p.b, p.a] == [q.r, q.g, q.b, q.a]
                #expect(same, "pixel \(x),\(y)")
                if !same { return }
            }
        }
        // 45°: the square's turned bounding box, and ink conserved.
        let square = Image(width: 20, height: 20, fill: .black)
        let (diamondLayer, diamond) = try Self.placed(.image(square), base: base, ["rotation": .number(45)])
        #expect(abs(diamondLayer.bounds.width - 20 * 2.squareRoot()) < 1e-9)
        let mass = Self.moments(diamond).mass / 255
        #expect(abs(mass - 400) < 4, "alpha mass \(mass) px")
    }

    @Test func turnedLayerIsClippedToTheBase() throws {
        let base = Image(width: 120, height: 80)
        let caption = try Self.caption("Clipped caption", ["background": .string("black")])
        let (layer, out) = try Self.placed(caption, base: base, ["anchor": .string("top-left"), "offset": .point(Point(x: -30, y: -5)),
                                                                  "rotation": .number(20)])
        #expect(layer.bounds.x < 0 && layer.bounds.y < 0)
        #expect(out.width == 120 && out.height == 80)
        #expect(TestSupport.changedBox(out, from: base) != nil)
    }

    /// The range is checked with the parameters (the command line names the parameter: see
    /// `CaptionPipelineTests.badRotationIsRefusedBeforeRunning`).
    @Test func rotationOutsideItsRangeIsRefused() throws {
        let base = Image(width: 10, height: 10)
        for bad in [361.0, -400, 1e300] {
            #expect {
                _ = try StageHarness(PlaceStage.self).run(["rotation": .number(bad)],
                                                          inputs: ["base": .image(base), "layer": .image(base)])
            } throws: { error in
                "\(error)".contains("from -360 to 360")
            }
        }
    }
}
