import Foundation
import SumiCodecs
import SumiKit
import Testing

/// RLE8 BMPs ImageMagick writes decode to the pixels it reads (`make test`).
@Suite struct RunLengthBMPReferenceTests {
    @Test func imageMagicksRLE8DecodesToTheSamePixels() throws {
        let folder = try ScratchFolder("rle8")
        let path = folder.file("g.bmp")
        let made = try runTool(["/usr/bin/convert", "-size", "37x23", "gradient:red-blue", "-type", "palette",
                                "-compress", "RLE", "BMP3:\(path)"])
        try #require(made.status == 0)
        let bytes = try folder.read("g.bmp")
        try #require(bytes[30] == 1, "not RLE8")
        let image = try decodeBytes(bytes)
        #expect(image.width == 37 && image.height == 23)
        #expect(straightPixels(image) == (try magickRGBA(path)))
    }
}
