import Foundation
import SumiCodecs
import SumiKit
import Testing

@Suite struct RoundTripTests {
    @Test func jpegRoundTripKeepsSmoothImage() throws {
        let image = Fixtures.smooth(width: 320, height: 200)
        let bytes = try JPEGEncoder.encode(image, quality: 90)
        let decoded = try decodeBytes(bytes)
        #expect(decoded.width == 320 && decoded.height == 200)
        #expect(psnr(image, decoded) > 46)  // measured 50.1
        #expect(decoded.metadata.sourceFormat == "jpeg")
        #expect(decoded.metadata.knownOpaque)
        #expect(decoded.metadata.sourceBytes == bytes)
        // Lower quality costs fidelity and bytes.
        let small = try JPEGEncoder.encode(image, quality: 20)
        #expect(small.count < bytes.count)
        #expect(psnr(image, try decodeBytes(small)) < psnr(image, decoded))
    }

    @Test func jpegFlattensTranslucentPixelsOntoBackground() throws {
        // Straight red at alpha 128 over blue: about (128, 0, 127).
        let image = Image(width: 16, height: 16, fill: Color(red: 255, green: 0, blue: 0, alpha: 128))
        let decoded = try decodeBytes(try JPEGEncoder.encode(image, quality: 95, background: Color(red: 0, green: 0, blue: 255)))
        let p = decoded.pixel(x: 8, y: 8)
        #expect(abs(Int(p.r) - 128) <= 4 && Int(p.g) <= 4 && abs(Int(p.b) - 127) <= 4 && p.a == 255)
    }

    @Test func pngRoundTripIsExactWithAlpha() throws {
        let (image, straight) = Fixtures.translucent()
        let bytes = try PNGEncoder.encode(image)
        let decoded = try decodeBytes(bytes)
        #expect(decoded.pixels == image.pixels)
        #expect(!decoded.metadata.knownOpaque)
        // Straight colour survives premultiplication within ±1 where alpha is not tiny.
        let back = straightPixels(decoded)
        var worst = 0
        for p in 0..<(image.width * image.height) where straight[p * 4 + 3] >= 128 {
            for c in 0..<4 { worst = max(worst, abs(Int(back[p * 4 + c]) - Int(straight[p * 4 + c]))) }
        }
        #expect(worst <= 1)
        // Every compression level decodes to the same pixels.
        for level in [0, 9] {
            #expect(try decodeBytes(try PNGEncoder.encode(image, compression: level)).pixels == image.pixels)
        }
    }

    @Test func pngColourTypeFollowsTheContent() throws {
        // Few colours: a palette (with tRNS when some are translucent).
        let flat = Fixtures.asymmetric()
        let palette = try PNGEncoder.encode(flat)
        #expect(palette[25] == 3)  // IHDR colour type
        #expect(try decodeBytes(palette).pixels == flat.pixels)
        var mixed = flat
        for i in stride(from: 3, to: 64 * 4 * 10, by: 4) { mixed.pixels[i] = 0; mixed.pixels[i - 1] = 0; mixed.pixels[i - 2] = 0; mixed.pixels[i - 3] = 0 }
        let withTRNS = try PNGEncoder.encode(mixed)
        #expect(withTRNS[25] == 3)
        #expect(try decodeBytes(withTRNS).pixels == mixed.pixels)
        // Many opaque colours: RGB without alpha.
        let smooth = Fixtures.smooth(width: 300, height: 200)
        let rgb = try PNGEncoder.encode(smooth)
        #expect(rgb[25] == 2)
        let decoded = try decodeBytes(rgb)
        #expect(decoded.pixels == smooth.pixels)
        #expect(decoded.metadata.knownOpaque)
        // Many colours with alpha: RGBA.
        #expect(try PNGEncoder.encode(Fixtures.translucent().image)[25] == 6)
    }

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
