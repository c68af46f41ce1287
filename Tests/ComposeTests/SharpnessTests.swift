import Testing
import SumiKit
import SumiCompose

/// A vector layer is rasterised at its final scale (crisp edges); a raster layer can only be
/// upsampled (soft edges). Measured along the layer's middle scanline across its left side: white
/// base → black border (7.7 px) → red fill, counting the pixels that are neither one nor the other.
@Suite struct SharpnessTests {
    static let box = BoxLayer(size: Size(width: 40, height: 20), fill: Color(red: 255, green: 0, blue: 0), border: .black)

    /// Pixels of the scanline in a transition: red or green strictly between 10 % and 90 %
    /// (white is 255/255, black 0/0, red 255/0, so every flat run has both at an extreme).
    static func transitionWidth(_ image: Image, row: Int, from x0: Int, to x1: Int) -> Int {
        (x0..<x1).filter { x in
            let p = image.pixel(x: x, y: row)
            return (p.r > 25 && p.r < 230) || (p.g > 25 && p.g < 230)
        }.count
    }

    static func run(_ layer: Value) throws -> (Layer, Image) {
        let base = TestSupport.solid(770, 770, .white)
        // 770 px shown in a 100-point frame: 7.7 pixels per point; a fractional offset puts the
        // edges between pixels.
        return try TestSupport.placeAndBlend(
            base: base, layer: layer,
            place: ["frame": .size(Size(width: 100, height: 100)), "offset": .point(Point(x: 0.33, y: 0.21))])
    }

    @Test func vectorLayerHasCrispEdges() throws {
        let (layer, out) = try Self.run(.layer(Layer(content: Self.box)))
        #expect(abs(layer.placement.scaleX - 7.7) < 1e-12)
        let left = layer.placement.origin.x, mid = Int(layer.placement.origin.y + 10 * 7.7)
        let width = Self.transitionWidth(out, row: mid, from: Int(left) - 10, to: Int(left) + 20)
        // One partially covered pixel at the outer edge and one at the inner edge.
        #expect(width <= 2, "vector edge transitions \(width) px")
        // The border itself: 7.7 px of black, then the red fill.
        let firstInside = Int(left.rounded(.up)) + 1
        #expect(out.color(x: firstInside + 4, y: mid) == .black)
        #expect(out.color(x: Int(left + 7.7) + 2, y: mid) == Color(red: 255, green: 0, blue: 0))
    }

    @Test func upsampledRasterLayerIsSoft() throws {
        let raster = try Self.box.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let (layer, out) = try Self.run(.image(raster))
        let left = layer.placement.origin.x, mid = Int(layer.placement.origin.y + 10 * 7.7)
        let width = Self.transitionWidth(out, row: mid, from: Int(left) - 10, to: Int(left) + 20)
        #expect(width >= 4, "upsampled raster edge transitions \(width) px")
    }
}
