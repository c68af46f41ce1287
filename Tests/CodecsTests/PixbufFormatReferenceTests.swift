import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// An icon ImageMagick writes decodes (with Sumi's own ICO reader) as ImageMagick reads it (`make test`).
@Suite struct PixbufFormatReferenceTests {
    @Test func anIconDecodesAsImageMagickReadsIt() throws {
        let folder = try ScratchFolder("ico")
        let path = folder.file("a.ico")
        try #require(try runTool(["/usr/bin/convert", "-size", "24x24", "plasma:fractal", "-seed", "4", path]).status == 0)
        let image = try decodeBytes(try folder.read("a.ico"))
        #expect(image.metadata.sourceFormat == "ico" && image.width == 24)
        #expect(straightPixels(image) == (try magickRGBA(path)))
    }
}
