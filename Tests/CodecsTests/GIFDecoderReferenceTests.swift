import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// GIF read by our own reader compared with ImageMagick (`make test`; GIFDecoderTests runs in `make check`).
@Suite struct GIFDecoderReferenceTests {
    @Test func interlacedGIFDecodesAsImageMagickReadsIt() throws {
        // An interlaced GIF decodes as ImageMagick reads the one it wrote.
        let folder = try ScratchFolder("gif")
        let path = folder.file("i.gif")
        try #require(try runTool(["/usr/bin/convert", "-size", "23x17", "plasma:fractal", "-seed", "3", "-colors", "60",
                                  "-interlace", "GIF", path]).status == 0)
        #expect(straightPixels(try decodeBytes(try folder.read("i.gif"))) == (try magickRGBA(path)))
    }
}
