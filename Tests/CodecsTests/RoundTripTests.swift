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

}
