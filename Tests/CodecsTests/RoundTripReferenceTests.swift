import Foundation
import SumiCodecs
import SumiKit
import Testing

/// ImageMagick reads what we write and we read what it writes (`make test`).
@Suite struct RoundTripReferenceTests {
    @Test func imageMagickReadsWhatWeWrite() throws {
        let folder = try ScratchFolder("magick-reads")
        let (image, _) = Fixtures.translucent()
        let png = try folder.write(try PNGEncoder.encode(image), to: "out.png")
        #expect(try magickRGBA(png) == straightPixels(image))

        let smooth = Fixtures.smooth(width: 160, height: 120)
        let jpg = try folder.write(try JPEGEncoder.encode(smooth, quality: 90), to: "out.jpg")
        let theirs = Fixtures.premultiplied(try magickRGBA(jpg), width: 160, height: 120)
        #expect(psnr(smooth, theirs) > 45)  // measured 48.6
    }

    @Test func weReadWhatImageMagickWrites() throws {
        let folder = try ScratchFolder("we-read")
        let (image, straight) = Fixtures.translucent()
        let png = folder.file("magick.png")
        try magickWrite(straight, width: image.width, height: image.height, to: png, in: folder)
        #expect(try decodeBytes(try folder.read("magick.png")).pixels == image.pixels)

        let smooth = Fixtures.smooth(width: 160, height: 120)
        let jpg = folder.file("magick.jpg")
        try magickWrite(straightPixels(smooth), width: 160, height: 120, to: jpg, options: ["-quality", "92"], in: folder)
        let decoded = try decodeBytes(try folder.read("magick.jpg"))
        #expect(psnr(smooth, decoded) > 46)  // measured 49.9
        // And the same pixels ImageMagick itself gets from that file.
        #expect(psnr(decoded, Fixtures.premultiplied(try magickRGBA(jpg), width: 160, height: 120)) > 55)  // same library: identical
    }

    @Test func sixteenBitGrayAndPalettePNGsExpand() throws {
        let folder = try ScratchFolder("png-variants")
        let image = Fixtures.asymmetric()
        let straight = straightPixels(image)
        try magickWrite(straight, width: 64, height: 48, to: "PNG8:" + folder.file("palette.png"), in: folder)
        #expect(try decodeBytes(try folder.read("palette.png")).pixels == image.pixels)
        try magickWrite(straight, width: 64, height: 48, to: "PNG64:" + folder.file("deep.png"), in: folder)
        #expect(try decodeBytes(try folder.read("deep.png")).pixels == image.pixels)
        try magickWrite(straight, width: 64, height: 48, to: folder.file("gray.png"),
                        options: ["-colorspace", "Gray", "-type", "Grayscale"], in: folder)
        let gray = try decodeBytes(try folder.read("gray.png"))
        let p = gray.pixel(x: 40, y: 40)
        #expect(p.r == p.g && p.g == p.b && p.a == 255 && p.r > 150)
    }
}
