import Foundation
import SumiCodecs
import SumiKit
import Testing

/// What the encode stage writes, as ImageMagick reads it (`make test`).
@Suite struct EncodeStageReferenceTests {
    let harness = StageHarness(EncodeStage.self)

    func encode(_ image: Image, _ parameters: [String: ParamValue]) throws -> FileOutput {
        try EncodeStageTests().encode(image, parameters)
    }

    @Test func writesEveryFormatReadableByImageMagick() throws {
        let folder = try ScratchFolder("encode-formats")
        let (translucent, straight) = Fixtures.translucent()
        let smooth = Fixtures.smooth(width: 96, height: 64)

        let png = try encode(translucent, ["path": .path(folder.file("a.png"))])
        #expect(png.format == "png" && png.width == 64 && png.height == 48)
        #expect(png.bytes == (try folder.read("a.png")).count)
        #expect(try magickRGBA(folder.file("a.png")) == straightPixels(translucent))

        let jpg = try encode(smooth, ["path": .path(folder.file("a.jpg")), "quality": .integer(95)])
        #expect(jpg.format == "jpeg" && jpg.width == 96 && jpg.height == 64)
        #expect(psnr(smooth, Fixtures.premultiplied(try magickRGBA(folder.file("a.jpg")), width: 96, height: 64)) > 45)

        let webp = try encode(smooth, ["path": .path(folder.file("a.webp"))])
        #expect(webp.format == "webp")
        #expect(psnr(smooth, Fixtures.premultiplied(try magickRGBA(folder.file("a.webp")), width: 96, height: 64)) > 35)
        // Our own decoder reads it back too, alpha included.
        let translucentWebP = try encode(translucent, ["path": .path(folder.file("b.webp")), "quality": .integer(100)])
        #expect(translucentWebP.bytes > 0)
        let backWebP = try decodeBytes(try folder.read("b.webp"))
        #expect(abs(Int(backWebP.pixel(x: 40, y: 40).a) - Int(translucent.pixel(x: 40, y: 40).a)) <= 2)

        let tiff = try encode(translucent, ["path": .path(folder.file("a.tif"))])
        #expect(tiff.format == "tiff")
        let theirs = try magickRGBA(folder.file("a.tif"))
        var worst = 0
        for i in 0..<theirs.count where straight[i - i % 4 + 3] >= 128 { worst = max(worst, abs(Int(theirs[i]) - Int(straight[i]))) }
        #expect(worst <= 1)
        let backTIFF = try decodeBytes(try folder.read("a.tif"))
        var worstBack = 0
        for i in 0..<backTIFF.pixels.count { worstBack = max(worstBack, abs(Int(backTIFF.pixels[i]) - Int(translucent.pixels[i]))) }
        #expect(worstBack <= 1)

        let bmp = try encode(Fixtures.asymmetric(), ["path": .path(folder.file("a.bmp"))])
        #expect(bmp.format == "bmp")
        let bmpPixels = try magickRGBA(folder.file("a.bmp"))
        #expect(bmpPixels == straightPixels(Fixtures.asymmetric()))
        #expect(try decodeBytes(try folder.read("a.bmp")).pixels == Fixtures.asymmetric().pixels)
    }

    @Test func layerIsRasterisedAtItsOwnSize() throws {
        let folder = try ScratchFolder("encode-layer")
        let image = Fixtures.translucent(width: 40, height: 12).image
        let layer = Layer(content: FixedLayerContent(image: image),
                          placement: Placement(origin: Point(x: 5.5, y: 3), scaleX: 7.7, scaleY: 7.7))
        let value = try harness.run(["path": .path(folder.file("label.png"))], inputs: ["in": .layer(layer)])
        guard case .file(let output) = value else { Issue.record("expected a file"); return }
        #expect(output.width == 40 && output.height == 12)
        #expect(try magickRGBA(folder.file("label.png")) == straightPixels(image))
    }
}
