import Testing
import SumiKit
import SumiCompose
import SumiText

/// A caption turned by half a turn keeps its box, border and rounded corners, drawn where the
/// upright caption's are after the turn; a centred box at scale 1 has its edges on whole pixels.
@Suite struct HalfTurnTests {
    /// Opaque pixels of exactly `rgb`, and their bounding box (x0, y0, x1, y1; exclusive ends).
    static func pixels(_ image: Image, _ rgb: (UInt8, UInt8, UInt8)) -> (count: Int, box: (Int, Int, Int, Int)?) {
        var count = 0, x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                guard image.pixels[i + 3] == 255, image.pixels[i] == rgb.0, image.pixels[i + 1] == rgb.1,
                      image.pixels[i + 2] == rgb.2 else { continue }
                count += 1
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x + 1); y1 = max(y1, y + 1)
            }
        }
        return (count, count > 0 ? (x0, y0, x1, y1) : nil)
    }

    /// `image` turned half a turn about its centre (pixel moves, no resampling).
    static func halfTurn(_ image: Image) -> Image {
        let n = image.width * image.height
        var out = [UInt8](repeating: 0, count: n * 4)
        for i in 0..<n { for c in 0..<4 { out[(n - 1 - i) * 4 + c] = image.pixels[i * 4 + c] } }
        return Image(width: image.width, height: image.height, pixels: out)
    }

    static let border: (UInt8, UInt8, UInt8) = (0, 0, 255)
    static let fill: (UInt8, UInt8, UInt8) = (255, 204, 0)

    static func caption() throws -> Value {
        try RotationTests.caption("Sumi 180°", ["background": .string("#ffcc00"), "border": .number(3),
                                                "border-color": .string("#0000ff"), "corner-radius": .number(8),
                                                "padding": .number(6), "shadow": .string("2, 2, 2, #00000080")])
    }

    @Test func halfTurnKeepsTheBoxBorderAndCorners() throws {
        // Centred on a square base: half a turn of the caption about its centre is half a turn of
        // the whole base, which maps pixels onto pixels.
        let base = Image(width: 400, height: 400)
        let caption = try Self.caption()
        func render(_ degrees: Double) throws -> Image {
            try RotationTests.placed(caption, base: base, ["rotation": .number(degrees)]).1
        }
        let upright = try render(0)
        let uprightBorder = Self.pixels(upright, Self.border), uprightFill = Self.pixels(upright, Self.fill)
        #expect(uprightBorder.count > 500 && uprightFill.count > 500, "\(uprightBorder.count), \(uprightFill.count)")
        for degrees in [179.0, 180, -180, 181] {
            let turned = try render(degrees)
            let border = Self.pixels(turned, Self.border), fill = Self.pixels(turned, Self.fill)
            // Turned by a degree the edges are anti-aliased, so fewer pixels are exactly the colour.
            let least = degrees.truncatingRemainder(dividingBy: 180) == 0 ? 0.97 : 0.6
            #expect(Double(border.count) > Double(uprightBorder.count) * least, "\(degrees)°: \(border.count) border pixels")
            #expect(Double(fill.count) > Double(uprightFill.count) * least, "\(degrees)°: \(fill.count) fill pixels")
        }
        // In the expected place: the upright render turned half a turn.
        let turned = try render(180)
        let reference = Self.halfTurn(upright)
        let quality = RotationTests.psnr(reference, turned)
        print("half turn: \(quality) dB against the upright render turned")
        #expect(quality > 35, "PSNR \(quality) dB")
        let expected = try #require(Self.pixels(reference, Self.border).box)
        let box = try #require(Self.pixels(turned, Self.border).box)
        #expect(abs(box.0 - expected.0) <= 1 && abs(box.1 - expected.1) <= 1
                && abs(box.2 - expected.2) <= 1 && abs(box.3 - expected.3) <= 1, "border at \(box), expected \(expected)")
        #expect(try render(-180).pixels == turned.pixels)
    }

    /// Colour emoji (bitmaps) are turned with the text, not stretched by a negative scale.
    @Test func halfTurnKeepsColourEmoji() throws {
        let base = Image(width: 200, height: 200)
        let caption = try RotationTests.caption("🟥", ["size": .number(40)])
        let upright = try RotationTests.placed(caption, base: base, [:]).1
        let turned = try RotationTests.placed(caption, base: base, ["rotation": .number(180)]).1
        func reddish(_ image: Image) -> Int {
            stride(from: 0, to: image.pixels.count, by: 4).filter { i in
                image.pixels[i + 3] > 200 && image.pixels[i] > 150 && image.pixels[i + 1] < 120
            }.count
        }
        let before = reddish(upright), after = reddish(turned)
        #expect(before > 200, "\(before) red pixels upright")
        #expect(abs(after - before) < before / 10, "\(after) red pixels turned, \(before) upright")
    }

    /// Centred at scale 1 the layer lands on a fractional pixel; the box still has whole-pixel
    /// edges: a 3 px border is 3 columns and 3 rows of full coverage, with nothing partly covered.
    @Test func centredBoxAtScaleOneHasWholePixelEdges() throws {
        let caption = try RotationTests.caption("Centred", ["background": .string("#ffcc00"), "border": .number(3),
                                                            "border-color": .string("#0000ff"), "padding": .number(5)])
        for (width, height) in [(301, 201), (300, 200), (317, 123)] {
            let base = Image(width: width, height: height)
            let (layer, out) = try RotationTests.placed(caption, base: base, [:])
            let origin = layer.placement.origin
            let box = try #require(Self.pixels(out, Self.border).box)
            // Within half a pixel of where the placement puts it.
            #expect(abs(Double(box.0) - origin.x) <= 0.5 && abs(Double(box.1) - origin.y) <= 0.5,
                    "box at \(box), placed at \(origin)")
            let midY = (box.1 + box.3) / 2, midX = (box.0 + box.2) / 2
            func rgba(_ x: Int, _ y: Int) -> [UInt8] { Array(out.pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 4)]) }
            let blue: [UInt8] = [0, 0, 255, 255], yellow: [UInt8] = [255, 204, 0, 255], empty: [UInt8] = [0, 0, 0, 0]
            // Across the left and right edges: empty, 3 × border, fill; fill, 3 × border, empty.
            let across = (-1...3).map { rgba(box.0 + $0, midY) }, back = (-4...0).map { rgba(box.2 + $0, midY) }
            #expect(across == [empty, blue, blue, blue, yellow], "left edge at \(width)x\(height): \(across)")
            #expect(back == [yellow, blue, blue, blue, empty], "right edge at \(width)x\(height): \(back)")
            let down = (-1...3).map { rgba(midX, box.1 + $0) }, up = (-4...0).map { rgba(midX, box.3 + $0) }
            #expect(down == [empty, blue, blue, blue, yellow], "top edge at \(width)x\(height): \(down)")
            #expect(up == [yellow, blue, blue, blue, empty], "bottom edge at \(width)x\(height): \(up)")
        }
    }
}
