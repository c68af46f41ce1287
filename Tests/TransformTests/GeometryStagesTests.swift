import Testing
import SumiKit
import SumiTransform

/// Each pixel encodes its own position: red = x, green = y (images up to 256 a side), opaque.
func coordinates(width: Int, height: Int) -> Image {
    Image(width: width, height: height) { buffer in
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                buffer[i] = UInt8(x); buffer[i + 1] = UInt8(y); buffer[i + 2] = 7; buffer[i + 3] = 255
            }
        }
    }
}

@Suite struct CropStageTests {
    let harness = StageHarness(CropStage.self)

    @Test func rectKeepsExactlyThosePixels() throws {
        let out = try harness.runImage(["rect": .rect(Rect(x: 10, y: 20, width: 30, height: 5))],
                                       inputs: ["in": .image(coordinates(width: 64, height: 48))])
        #expect(out.width == 30 && out.height == 5)
        for (x, y) in [(0, 0), (29, 4), (13, 2)] {
            let p = out.pixel(x: x, y: y)
            #expect(Int(p.r) == 10 + x && Int(p.g) == 20 + y, "(\(x),\(y)) -> \(p)")
        }
    }

    @Test(arguments: [("top-left", 0, 0), ("center", 22, 19), ("bottom-right", 44, 38), ("top", 22, 0), ("right", 44, 19)])
    func sizeIsPlacedByGravity(gravity: String, x: Int, y: Int) throws {
        let out = try harness.runImage(["size": .size(Size(width: 20, height: 10)), "gravity": .string(gravity)],
                                       inputs: ["in": .image(coordinates(width: 64, height: 48))])
        #expect(out.width == 20 && out.height == 10)
        #expect(Int(out.pixel(x: 0, y: 0).r) == x && Int(out.pixel(x: 0, y: 0).g) == y)
    }

    @Test func sizeLargerThanImageKeepsTheWholeSide() throws {
        let out = try harness.runImage(["size": .size(Size(width: 100, height: 10))],
                                       inputs: ["in": .image(coordinates(width: 64, height: 48))])
        #expect(out.width == 64 && out.height == 10)
        #expect(out.pixel(x: 0, y: 0).g == 19)
    }

    @Test func badRectanglesAreErrors() throws {
        let image = coordinates(width: 64, height: 48)
        #expect(throws: (any Error).self) { try harness.runImage(["rect": .rect(Rect(x: 60, y: 0, width: 10, height: 10))], inputs: ["in": .image(image)]) }
        #expect(throws: (any Error).self) { try harness.make(["rect": .rect(Rect(x: 0, y: 0, width: 0, height: 10))]) }
        #expect(throws: (any Error).self) { try harness.make(["rect": .rect(Rect(x: 0.5, y: 0, width: 3, height: 10))]) }
        #expect(throws: (any Error).self) { try harness.make([:]) }
        #expect(throws: (any Error).self) {
            try harness.make(["rect": .rect(Rect(x: 0, y: 0, width: 3, height: 3)), "size": .size(Size(width: 2, height: 2))])
        }
    }
}

@Suite struct FlipStageTests {
    let harness = StageHarness(FlipStage.self)

    @Test(arguments: ["horizontal", "vertical", "both"])
    func mirrorsEveryPixel(direction: String) throws {
        let out = try harness.runImage(["direction": .string(direction)], inputs: ["in": .image(coordinates(width: 9, height: 5))])
        #expect(out.width == 9 && out.height == 5)
        for y in 0..<5 {
            for x in 0..<9 {
                let p = out.pixel(x: x, y: y)
                let sx = direction == "vertical" ? x : 8 - x
                let sy = direction == "horizontal" ? y : 4 - y
                #expect(Int(p.r) == sx && Int(p.g) == sy)
            }
        }
    }
}

@Suite struct RotateStageTests {
    let harness = StageHarness(RotateStage.self)

    @Test(arguments: [90.0, 180.0, 270.0, -90.0, 450.0])
    func quarterTurnsMovePixelsExactly(angle: Double) throws {
        let w = 7, h = 4
        let out = try harness.runImage(["angle": .number(angle)], inputs: ["in": .image(coordinates(width: w, height: h))])
        let turns = ((Int(angle) / 90) % 4 + 4) % 4
        #expect((out.width, out.height) == (turns % 2 == 1 ? (h, w) : (w, h)))
        for y in 0..<out.height {
            for x in 0..<out.width {
                // Where output (x, y) came from, turning clockwise.
                let (sx, sy): (Int, Int)
                switch turns {
                case 1: (sx, sy) = (y, h - 1 - x)
                case 2: (sx, sy) = (w - 1 - x, h - 1 - y)
                default: (sx, sy) = (w - 1 - y, x)
                }
                let p = out.pixel(x: x, y: y)
                #expect(Int(p.r) == sx && Int(p.g) == sy, "angle \(angle) (\(x),\(y))")
            }
        }
    }

    @Test func anyAngleFillsTheCornersWithTheBackground() throws {
        // A 40x40 opaque grey square turned 45° fits a 57x57 box; corners are the background.
        let grey = Image(width: 40, height: 40, fill: Color(red: 100, green: 100, blue: 100))
        let out = try harness.runImage(["angle": .number(45), "background": .color(Color(red: 255, green: 0, blue: 0))],
                                       inputs: ["in": .image(grey)])
        #expect(out.width == 57 && out.height == 57)
        #expect(out.color(x: 1, y: 1) == Color(red: 255, green: 0, blue: 0))
        #expect(out.color(x: 28, y: 28) == Color(red: 100, green: 100, blue: 100))
        // The diamond's tips touch the box's edge midpoints.
        #expect(out.color(x: 28, y: 2) == Color(red: 100, green: 100, blue: 100))
    }

    @Test func transparentBackgroundLeavesTransparentCorners() throws {
        let white = Image(width: 20, height: 10, fill: .white)
        let out = try harness.runImage(["angle": .number(30)], inputs: ["in": .image(white)])
        #expect(out.pixel(x: 0, y: 0).a == 0)
        #expect(out.pixel(x: out.width / 2, y: out.height / 2).a == 255)
        #expect(!out.isOpaque)
    }

    @Test func angleIsRequired() {
        #expect(throws: (any Error).self) { try harness.make([:]) }
    }
}

@Suite struct PadStageTests {
    let harness = StageHarness(PadStage.self)
    let red = Color(red: 255, green: 0, blue: 0)

    @Test func marginsFollowCSSOrder() throws {
        let out = try harness.runImage(["margin": .list([.integer(1), .integer(2), .integer(3), .integer(4)]), "color": .color(red)],
                                       inputs: ["in": .image(coordinates(width: 10, height: 6))])
        #expect(out.width == 10 + 2 + 4 && out.height == 6 + 1 + 3)
        #expect(out.color(x: 0, y: 0) == red && out.color(x: 15, y: 9) == red)
        // The image's top-left pixel sits at (left, top).
        let p = out.pixel(x: 4, y: 1)
        #expect(p.r == 0 && p.g == 0 && p.b == 7)
        #expect(out.color(x: 3, y: 1) == red && out.color(x: 4, y: 0) == red)
        #expect(out.pixel(x: 13, y: 6).r == 9 && out.pixel(x: 13, y: 6).g == 5)
    }

    @Test func oneMarginIsAllSides() throws {
        let out = try harness.runImage(["margin": .list([.integer(5)])], inputs: ["in": .image(coordinates(width: 10, height: 6))])
        #expect(out.width == 20 && out.height == 16)
        #expect(out.pixel(x: 0, y: 0).a == 0 && out.pixel(x: 5, y: 5).a == 255)
    }

    @Test func sizeIsPlacedByGravityAndNeverCrops() throws {
        let out = try harness.runImage(["size": .size(Size(width: 20, height: 4)), "gravity": .string("right"), "color": .color(red)],
                                       inputs: ["in": .image(coordinates(width: 10, height: 6))])
        #expect(out.width == 20 && out.height == 6)
        #expect(out.color(x: 9, y: 0) == red)
        #expect(out.pixel(x: 10, y: 0).r == 0 && out.pixel(x: 19, y: 5).r == 9)
    }

    @Test func badParametersAreErrors() {
        #expect(throws: (any Error).self) { try harness.make([:]) }
        #expect(throws: (any Error).self) { try harness.make(["margin": .list([.integer(-1)])]) }
        #expect(throws: (any Error).self) { try harness.make(["margin": .list([.integer(1), .integer(2), .integer(3), .integer(4), .integer(5)])]) }
        #expect(throws: (any Error).self) { try harness.make(["margin": .list([.integer(1)]), "size": .size(Size(width: 3, height: 3))]) }
    }
}

@Suite struct ScaleEnlargeTests {
    let harness = StageHarness(ScaleStage.self)

    @Test func enlargeFalseLeavesSmallImagesAlone() throws {
        let source = coordinates(width: 64, height: 32)
        let out = try harness.runImage(["width": .integer(256), "enlarge": .bool(false)], inputs: ["in": .image(source)])
        #expect(out.width == 64 && out.height == 32)
        #expect(out.pixels == source.pixels)
        let fit = try harness.runImage(["width": .integer(100), "height": .integer(100), "enlarge": .bool(false)], inputs: ["in": .image(source)])
        #expect(fit.width == 64 && fit.height == 32)
    }

    @Test func enlargeFalseStillShrinks() throws {
        let out = try harness.runImage(["width": .integer(16), "enlarge": .bool(false)], inputs: ["in": .image(coordinates(width: 64, height: 32))])
        #expect(out.width == 16 && out.height == 8)
        let up = try harness.runImage(["width": .integer(128)], inputs: ["in": .image(coordinates(width: 64, height: 32))])
        #expect(up.width == 128 && up.height == 64)
    }
}
