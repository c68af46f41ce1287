import Foundation
import SumiCodecs
import SumiKit
import Testing

/// The PNG encoder picks the smallest lossless layout (palette, grey, packed bit depths) and stays
/// no larger than ImageMagick's PNG on screen captures; every pixel decodes back unchanged, read by
/// Sumi's decoder and by ImageMagick's.
@Suite struct PNGSizeReferenceTests {
    /// Colour type and bit depth from the IHDR chunk.
    private func layout(_ png: [UInt8]) -> (colorType: UInt8, depth: UInt8) { (png[25], png[24]) }

    /// The length of the chunk `type` (nil when absent).
    private func chunkLength(_ png: [UInt8], _ type: String) -> Int? {
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return length }
            offset += 12 + length
        }
        return nil
    }

    /// Encodes `image`, checks the layout, and that both decoders give back every pixel.
    private func expectLossless(_ image: Image, colorType: UInt8, depth: UInt8, in folder: ScratchFolder,
                                sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let png = try PNGEncoder.encode(image)
        #expect(layout(png) == (colorType, depth), sourceLocation: sourceLocation)
        #expect(try decodeBytes(png).pixels == image.pixels, sourceLocation: sourceLocation)
        let path = try folder.write(png, to: "out.png")
        #expect(try magickRGBA(path) == straightPixels(image), sourceLocation: sourceLocation)
        return png
    }

    private static func image(width: Int, height: Int, _ color: (Int, Int) -> Color) -> Image {
        Image(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let c = color(x, y).premultiplied, i = (y * width + x) * 4
                    out[i] = c.0; out[i + 1] = c.1; out[i + 2] = c.2; out[i + 3] = c.3
                }
            }
        }
    }

    @Test func manyColoursWithAlphaStayRGBA() throws {
        let folder = try ScratchFolder("png-size")
        let (image, _) = Fixtures.translucent(width: 97, height: 61)
        _ = try expectLossless(image, colorType: 6, depth: 8, in: folder)
    }

    @Test func manyOpaqueColoursStayRGB() throws {
        let folder = try ScratchFolder("png-size")
        _ = try expectLossless(Fixtures.smooth(width: 301, height: 203), colorType: 2, depth: 8, in: folder)
    }

    @Test func greyImagesBecomeGrey() throws {
        let folder = try ScratchFolder("png-size")
        // 256 greys, opaque: 8-bit grey.
        let ramp = Self.image(width: 256, height: 40) { x, y in
            let v = UInt8((x + y) % 256)
            return Color(red: v, green: v, blue: v)
        }
        _ = try expectLossless(ramp, colorType: 0, depth: 8, in: folder)
        // Greys with varied alpha (more than 256 pairs): grey + alpha.
        let translucent = Self.image(width: 128, height: 64) { x, y in
            let v = UInt8(x * 2)
            return Color(red: v, green: v, blue: v, alpha: UInt8(255 - y * 2))
        }
        _ = try expectLossless(translucent, colorType: 4, depth: 8, in: folder)
        // Black and white: 1-bit grey; four even greys: 2-bit; sixteen: 4-bit.
        for (levels, depth) in [(2, 1), (4, 2), (16, 4)] as [(Int, UInt8)] {
            let steps = Self.image(width: 203, height: 37) { x, y in
                let v = UInt8((x / 7 + y) % levels * (255 / (levels - 1)))
                return Color(red: v, green: v, blue: v)
            }
            _ = try expectLossless(steps, colorType: 0, depth: depth, in: folder)
        }
    }

    @Test func fewColoursBecomeAPackedPalette() throws {
        let folder = try ScratchFolder("png-size")
        let colours: [Color] = (0..<200).map { (i: Int) -> Color in
            let red = UInt8(i), green = UInt8(255 - i), blue = UInt8(i * 7 % 256)
            return Color(red: red, green: green, blue: blue)
        }
        for (count, depth) in [(2, 1), (3, 2), (16, 4), (17, 8), (200, 8)] as [(Int, UInt8)] {
            let image = Self.image(width: 157, height: 43) { x, y in colours[(x / 3 + y * 5) % count] }
            _ = try expectLossless(image, colorType: 3, depth: depth, in: folder)
        }
    }

    @Test func translucentPaletteColoursComeFirstInTRNS() throws {
        let folder = try ScratchFolder("png-size")
        // Seven opaque colours, then three translucent ones and a transparent one.
        let opaque: [Color] = (0..<7).map { (i: Int) -> Color in Color(red: UInt8(i * 30), green: 90, blue: 200) }
        let colours: [Color] = opaque + [Color(red: 255, green: 0, blue: 0, alpha: 128), Color(red: 0, green: 255, blue: 0, alpha: 64),
               Color(red: 0, green: 0, blue: 255, alpha: 200), Color(red: 0, green: 0, blue: 0, alpha: 0)]
        let image = Self.image(width: 120, height: 50) { x, y in colours[(x / 4 + y) % colours.count] }
        let png = try expectLossless(image, colorType: 3, depth: 4, in: folder)
        #expect(chunkLength(png, "PLTE") == 11 * 3)
        #expect(chunkLength(png, "tRNS") == 4)
    }

    @Test func screenCaptureIsNoLargerThanImageMagicks() throws {
        let folder = try ScratchFolder("png-size")
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../pipelines/samples/page-1.png").standardized.path
        let shot = folder.file("shot.png")
        #expect(try runTool(["/usr/bin/convert", "-size", "1200x1700", "tile:\(sample)", shot]).status == 0)
        let image = try decodeBytes(try folder.read("shot.png"))
        let ours = try PNGEncoder.encode(image)
        #expect(try decodeBytes(ours).pixels == image.pixels)
        let theirs = folder.file("magick.png")
        #expect(try runTool(["/usr/bin/convert", shot, theirs]).status == 0)
        let theirSize = try folder.read("magick.png").count
        #expect(ours.count <= theirSize, "Sumi \(ours.count) bytes, ImageMagick \(theirSize)")
    }
}
