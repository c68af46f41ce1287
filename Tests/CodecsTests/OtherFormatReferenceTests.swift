import Foundation
import SumiCodecs
import SumiKit
import Testing

/// GIF, BMP, TIFF, WebP, JPEG and PNG variants ImageMagick writes (`make test`).
@Suite struct OtherFormatReferenceTests {
    @Test func gifFirstFrameDecodes() throws {
        let folder = try ScratchFolder("gif")
        let image = Fixtures.asymmetric()
        let raw = try folder.write(straightPixels(image), to: "a.rgba")
        let other = try folder.write(straightPixels(Image(width: 64, height: 48, fill: .black)), to: "b.rgba")
        // Two frames: the first is the asymmetric image, the second black.
        try runTool(["/usr/bin/convert", "-size", "64x48", "-depth", "8", "rgba:\(raw)", "rgba:\(other)",
                     folder.file("anim.gif")])
        let decoded = try decodeBytes(try folder.read("anim.gif"))
        #expect(decoded.pixels == image.pixels)
        #expect(decoded.metadata.sourceFormat == "gif")
    }

    @Test func bmpDecodes() throws {
        let folder = try ScratchFolder("bmp")
        let image = Fixtures.asymmetric()
        try magickWrite(straightPixels(image), width: 64, height: 48, to: "BMP3:" + folder.file("a.bmp"),
                        options: ["-alpha", "off"], in: folder)
        let decoded = try decodeBytes(try folder.read("a.bmp"))
        #expect(decoded.pixels == image.pixels)
        #expect(decoded.metadata.knownOpaque)
    }

    @Test func tiffDecodesWithAlpha() throws {
        let folder = try ScratchFolder("tiff")
        let (image, straight) = Fixtures.translucent()
        try magickWrite(straight, width: 64, height: 48, to: folder.file("a.tiff"), in: folder)
        let decoded = try decodeBytes(try folder.read("a.tiff"))
        #expect(decoded.width == 64 && decoded.height == 48)
        var worst = 0
        for i in 0..<image.pixels.count { worst = max(worst, abs(Int(decoded.pixels[i]) - Int(image.pixels[i]))) }
        #expect(worst <= 1)
    }

    @Test func webpDecodesLosslessExactly() throws {
        let folder = try ScratchFolder("webp")
        let (image, straight) = Fixtures.translucent()
        try magickWrite(straight, width: 64, height: 48, to: folder.file("a.webp"),
                        options: ["-define", "webp:lossless=true", "-define", "webp:exact=true"], in: folder)
        let decoded = try decodeBytes(try folder.read("a.webp"))
        #expect(decoded.pixels == image.pixels)
        #expect(decoded.metadata.sourceFormat == "webp")
    }

    @Test func jpegVariantsDecode() throws {
        let folder = try ScratchFolder("jpeg-variants")
        let smooth = Fixtures.smooth(width: 128, height: 96)
        let straight = straightPixels(smooth)
        try magickWrite(straight, width: 128, height: 96, to: folder.file("progressive.jpg"),
                        options: ["-interlace", "JPEG", "-quality", "95"], in: folder)
        #expect(psnr(try decodeBytes(try folder.read("progressive.jpg")), smooth) > 40)
        let cut = try folder.read("progressive.jpg")
        #expect(errorMessage { _ = try ImageDecoder.decode(Array(cut.prefix(cut.count / 2)), name: "cut.jpg", strict: true) }?
            .contains("truncated") == true)

        try magickWrite(straight, width: 128, height: 96, to: folder.file("gray.jpg"),
                        options: ["-colorspace", "Gray", "-quality", "95"], in: folder)
        let gray = try decodeBytes(try folder.read("gray.jpg"))
        let g = gray.pixel(x: 100, y: 80)
        #expect(g.r == g.g && g.g == g.b && g.a == 255 && g.r > 100)

        try magickWrite(straight, width: 128, height: 96, to: folder.file("cmyk.jpg"),
                        options: ["-colorspace", "CMYK", "-quality", "95"], in: folder)
        let cmyk = try decodeBytes(try folder.read("cmyk.jpg"))
        #expect(psnr(cmyk, smooth) > 25)
        #expect(cmyk.pixel(x: 127, y: 0).r > 200 && cmyk.pixel(x: 127, y: 0).g < 60)
    }

    @Test func interlacedPNGDecodes() throws {
        let folder = try ScratchFolder("png-interlaced")
        let (image, straight) = Fixtures.translucent()
        try magickWrite(straight, width: 64, height: 48, to: folder.file("adam7.png"), options: ["-interlace", "PNG"], in: folder)
        #expect(try decodeBytes(try folder.read("adam7.png")).pixels == image.pixels)
    }
}
