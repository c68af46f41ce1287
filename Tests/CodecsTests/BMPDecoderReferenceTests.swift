import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// BMPs ImageMagick writes decode to the pixels ImageMagick reads (`make test`).
@Suite struct BMPDecoderReferenceTests {
    @Test func imageMagicksBitmapsDecodeToTheSamePixels() throws {
        let folder = try ScratchFolder("bmp")
        let variants: [(String, [String])] = [("p1.bmp", ["-monochrome"]), ("p4.bmp", ["-colors", "12"]),
                                              ("p8.bmp", ["-colors", "200"]), ("rgb.bmp", ["-type", "TrueColor"])]
        for (name, options) in variants {
            let path = folder.file(name)
            try #require(try runTool(["/usr/bin/convert", "-size", "29x13", "plasma:fractal", "-seed", "5"] + options
                                     + ["BMP3:\(path)"]).status == 0)
            #expect(straightPixels(try decodeBytes(try folder.read(name))) == (try magickRGBA(path)), "\(name)")
        }
    }
}
