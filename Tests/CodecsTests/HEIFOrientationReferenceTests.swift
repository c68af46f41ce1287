import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// HEIF `irot`/`imir`: files written through libheif's `image_orientation` (heif-enc cannot) hold
/// the pixels as a camera stores them and the boxes that turn them upright; decode must apply them.
@Suite struct HEIFOrientationReferenceTests {
    /// An EXIF block (big-endian TIFF) whose IFD0 holds only Orientation `n`.
    static func exif(orientation n: Int) -> [UInt8] {
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(n), 0, 0, 0, 0, 0, 0]
    }

    @Test(arguments: 1...8) func decodeAppliesIrotAndImir(orientation: Int) throws {
        let folder = try ScratchFolder("heif-orient-\(orientation)")
        let upright = Fixtures.asymmetric()
        // The stored pixels, turned by ImageMagick as a camera would store them.
        try magickWrite(straightPixels(upright), width: 64, height: 48, to: folder.file("stored.png"),
                        options: OrientationTests.storedBy[orientation] ?? [], in: folder)
        let stored = try decodeBytes(try folder.read("stored.png"))
        #expect((stored.width, stored.height) == (orientation >= 5 ? (48, 64) : (64, 48)))
        let heic = try HEIFEncoder.encode(stored, format: .heif, quality: 95,
                                          metadata: OutputMetadata(exif: Self.exif(orientation: orientation)),
                                          orientation: orientation)
        let path = try folder.write(heic, to: "turned.heic")
        // libheif wrote the transforms this orientation needs (rotation for 3, 5-8; mirror for 2, 4, 5, 7).
        func has(_ box: String) -> Bool {
            let tag = Array(box.utf8)
            return (0..<(heic.count - 4)).contains { Array(heic[$0..<($0 + 4)]) == tag }
        }
        #expect(has("irot") == [3, 5, 6, 7, 8].contains(orientation))
        #expect(has("imir") == [2, 4, 5, 7].contains(orientation))

        let decoded = try decodeBytes(heic)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(psnr(decoded, upright) > 30)
        // The white marker near the top-left, the quadrants where they belong.
        #expect(decoded.pixel(x: 8, y: 8).r > 200 && decoded.pixel(x: 8, y: 8).b > 200)
        #expect(decoded.pixel(x: 50, y: 10).g > 150 && decoded.pixel(x: 50, y: 10).r < 80)
        #expect(decoded.pixel(x: 10, y: 40).b > 150 && decoded.pixel(x: 10, y: 40).r < 80)
        #expect(decoded.pixel(x: 50, y: 40).r > 150 && decoded.pixel(x: 50, y: 40).b < 80)
        #expect(decoded.metadata.sourceOrientation == orientation)
        // heif-convert shows the same picture (its PNG carries the EXIF Orientation unchanged over
        // pixels it has already turned: read as stored).
        #expect(try runTool(["/usr/bin/heif-convert", path, folder.file("reference.png")]).status == 0)
        #expect(psnr(decoded, try decodeBytes(try folder.read("reference.png"), orient: false)) > 40)

        // Written out, the EXIF says upright: viewers must not turn it again.
        _ = try StageHarness(EncodeStage.self).run(["path": .path(folder.file("out.jpg")), "quality": .integer(95)],
                                                   inputs: ["in": .image(decoded)])
        #expect(try exifTool(folder.file("out.jpg"))["Orientation"] as? Int == 1)
        let reread = try decodeBytes(try folder.read("out.jpg"))
        #expect(reread.width == 64 && reread.height == 48)
        // (4:2:0 chroma blurs the sharp quadrant edges: 27.7 dB; the picture turned again would be far below.)
        #expect(psnr(reread, decoded) > 25, "\(psnr(reread, decoded)) dB")
        #expect(reread.pixel(x: 8, y: 8).r > 200 && reread.pixel(x: 8, y: 8).b > 200)
        #expect(reread.pixel(x: 50, y: 10).g > 150 && reread.pixel(x: 10, y: 40).b > 150)
    }
}
