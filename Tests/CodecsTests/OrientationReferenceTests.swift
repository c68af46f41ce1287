import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// JPEGs ImageMagick turned as a camera stores them decode upright (`make test`).
@Suite struct OrientationReferenceTests {
    @Test(arguments: 1...8) func decodesUpright(orientation: Int) throws {
        let folder = try ScratchFolder("orient-\(orientation)")
        let upright = Fixtures.asymmetric()
        try magickWrite(straightPixels(upright), width: 64, height: 48, to: folder.file("stored.jpg"),
                        options: (OrientationTests.storedBy[orientation] ?? []) + ["-quality", "95"], in: folder)
        let stored = try folder.read("stored.jpg")
        let bytes = withEXIFOrientation(stored, orientation, bigEndian: orientation % 2 == 0)

        let decoded = try decodeBytes(bytes)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(psnr(decoded, upright) > 30)
        // The white marker is near the top-left; the quadrants are where they belong.
        #expect(decoded.pixel(x: 8, y: 8).r > 200 && decoded.pixel(x: 8, y: 8).b > 200)
        #expect(decoded.pixel(x: 50, y: 10).g > 150 && decoded.pixel(x: 50, y: 10).r < 80)
        #expect(decoded.pixel(x: 10, y: 40).b > 150 && decoded.pixel(x: 10, y: 40).r < 80)
        #expect(decoded.metadata.sourceOrientation == orientation)
        #expect(decoded.metadata.orientationApplied)
        #expect((decoded.metadata.sourceBytes != nil) == (orientation == 1))

        // orient: false keeps the stored pixels.
        let kept = try decodeBytes(bytes, orient: false)
        let storedSize = orientation >= 5 ? (48, 64) : (64, 48)
        #expect(kept.width == storedSize.0 && kept.height == storedSize.1)
        #expect(kept.pixels == (try decodeBytes(stored)).pixels)
        #expect(kept.metadata.sourceOrientation == orientation)
        #expect(kept.metadata.orientationApplied == (orientation == 1))
        #expect(kept.metadata.sourceBytes == bytes)
    }
}
