import SumiKit
import Testing
@testable import SumiText

/// Padding, border and background: sizes and pixel colours at scale 1 and scaled.
@Suite struct BoxTests {
    let red = Color(red: 255, green: 0, blue: 0)
    let blue = Color(red: 0, green: 0, blue: 255)

    func boxed(padding: ParamValue = .number(10)) throws -> TextLayerContent {
        try TextTestSupport.content(["text": .string("Hi"), "font": .string(TextTestSupport.dejaVu), "size": .number(20),
                                     "padding": padding, "border": .number(2), "border-color": .color(blue),
                                     "background": .color(red), "color": .color(.white)])
    }

    @Test func boxSizeAndColoursAtScaleOne() throws {
        let plain = try TextTestSupport.content(["text": .string("Hi"), "font": .string(TextTestSupport.dejaVu), "size": .number(20)])
        let content = try boxed()
        #expect(abs(content.size.width - (plain.size.width + 24)) < 1e-9)
        #expect(abs(content.size.height - (plain.size.height + 24)) < 1e-9)
        let image = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        #expect(image.width == Int(content.size.width.rounded(.up)) && image.height == Int(content.size.height.rounded(.up)))
        #expect(image.color(x: 0, y: 0) == blue)
        #expect(image.color(x: 1, y: image.height / 2) == blue)
        #expect(image.color(x: 2, y: 2) == red)
        #expect(image.color(x: 11, y: 11) == red, "padding is background")
        // The right and bottom border end at the layer's edge (fractional widths are anti-aliased).
        let right = image.color(x: Int((content.size.width - 2).rounded(.up)), y: image.height / 2)
        #expect(right == blue)
        // White text ink inside the padding box, none in the padding.
        let ink = (0..<image.height).flatMap { y in (0..<image.width).map { x in (x, y) } }
            .filter { image.color(x: $0.0, y: $0.1).green > 128 }
        #expect(!ink.isEmpty)
        #expect(ink.allSatisfy { $0.0 >= 12 && $0.1 >= 12 && $0.0 < image.width - 12 && $0.1 < image.height - 12 })
    }

    @Test func boxEdgesStayCrispWhenScaled() throws {
        let content = try boxed()
        let image = try content.rasterize(scaleX: 2.5, scaleY: 2.5, phase: Point(x: 0, y: 0))
        #expect(image.width == Int((content.size.width * 2.5).rounded(.up)))
        // Border is 5 px wide: pixels 0...4 blue, 5 red, no blend in between.
        for x in 0..<5 { #expect(image.color(x: x, y: image.height / 2) == blue) }
        #expect(image.color(x: 5, y: image.height / 2) == red)
        for y in 0..<5 { #expect(image.color(x: image.width / 2, y: y) == blue) }
        #expect(image.color(x: image.width / 2, y: 5) == red)
    }

    @Test func paddingPerSide() throws {
        let plain = try TextTestSupport.content(["text": .string("Hi"), "font": .string(TextTestSupport.dejaVu), "size": .number(20)])
        let content = try TextTestSupport.content(["text": .string("Hi"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(20), "padding": .string("5,10,15,20")])
        #expect(abs(content.size.width - plain.size.width - 30) < 1e-9)
        #expect(abs(content.size.height - plain.size.height - 20) < 1e-9)
        let image = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let ink = try #require(TextTestSupport.inkBounds(image))
        #expect(ink.x.lowerBound >= 20 && ink.y.lowerBound >= 5)
        #expect(ink.x.upperBound <= image.width - 10 && ink.y.upperBound <= image.height - 15)
        #expect(throws: StageError.self) { try TextStage.padding(.string("1,2,x")) }
        #expect(throws: StageError.self) { try TextStage.padding(.number(-1)) }
    }

    /// Line pitches are whole layout pixels, so at scale 1 a background covers every pixel of a
    /// multi-line block wrapped at a whole width: no half-covered last row (and an opaque image,
    /// which PNG stores as RGB).
    @Test func backgroundCoversEveryPixelAtScaleOne() throws {
        let content = try TextTestSupport.content(["text": .string("Sumi lays out\ntext in lines\nof 17 px"),
                                                   "font": .string(TextTestSupport.dejaVu), "size": .number(17),
                                                   "background": .color(.white), "padding": .number(2), "width": .number(200)])
        let lines = content.layout.lines
        #expect(lines.count == 3)
        // DejaVu Sans: (ascender + descender) × 17 = 19.79 px, rounded up.
        #expect(lines.allSatisfy { $0.top == $0.top.rounded() && $0.height == 20 })
        #expect(content.size.height == 64)
        let image = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        #expect(image.height == 64)
        let translucent = (0..<(image.width * image.height)).filter { image.pixels[$0 * 4 + 3] != 255 }.count
        #expect(translucent == 0, "\(translucent) pixels not covered")
        // The rounding goes under each line: the first baseline is where the font metrics put it.
        let face = content.layout.glyphs[0].face
        #expect(abs(lines[0].baseline - (face.lineGap / 2 + face.ascender) * 17 / face.unitsPerEm) < 1e-9)
    }

    @Test func translucentTextColour() throws {
        let content = try TextTestSupport.content(["text": .string("█"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(40), "color": .color(Color(red: 0, green: 0, blue: 255, alpha: 128))])
        let image = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let ink = try #require(TextTestSupport.inkBounds(image, threshold: 100))
        let c = image.color(x: (ink.x.lowerBound + ink.x.upperBound) / 2, y: (ink.y.lowerBound + ink.y.upperBound) / 2)
        #expect(c.blue == 255 && abs(Int(c.alpha) - 128) <= 1)
    }
}

@Suite struct CaptionTests {
    /// The manifest example's label: 17 px red text, padding 16, 1 px black border, placed at 7.7x.
    @Test func captionLabelAtPhotoScale() throws {
        let content = try TextTestSupport.content(["text": .string("Hello"), "size": .number(17), "color": .color(Color(red: 255, green: 0, blue: 0)),
                                                   "padding": .number(16), "border": .number(1), "border-color": .color(.black)])
        let image = try content.rasterize(scaleX: 7.7, scaleY: 7.7, phase: Point(x: 0.4, y: 0.7))
        TextTestSupport.savePNG(image, TextTestSupport.tempDirectory + "/caption-7.7x.png")
        #expect(image.width == Int((content.size.width * 7.7 + 0.4).rounded(.up)))
        #expect(image.height == Int((content.size.height * 7.7 + 0.7).rounded(.up)))
        // The right border is whole: the last full pixel column is black.
        let rightEdge = 0.4 + content.size.width * 7.7
        #expect(image.color(x: Int(rightEdge) - 1, y: image.height / 2) == .black)
        // The border, 7.7 px, is snapped as browsers snap border widths: 7 whole columns, from the
        // pixel edge nearest the box's edge at 0.4 (columns 0...6 solid black, then padding).
        for x in 0...6 { #expect(image.color(x: x, y: image.height / 2) == .black) }
        #expect(image.pixel(x: 7, y: image.height / 2).a == 0)
        // Inside: transparent padding, then red ink.
        #expect(image.pixel(x: 9, y: image.height / 2).a == 0)
        let ink = try #require(TextTestSupport.inkBounds(image.cropped(x: 10, y: 10, width: image.width - 20, height: image.height - 20)))
        let inkLeft = 10 + ink.x.lowerBound
        #expect(abs(Double(inkLeft) - (0.4 + 17 * 7.7)) < 12, "ink starts after border and padding")
    }
}
