import Foundation
import SumiCodecs
import SumiKit
import Testing

/// Photo metadata checks that need no outside program (`make check`; PhotoMetadataReferenceTests reads the outputs with exiftool).
@Suite struct PhotoMetadataTests {
    @Test func garbageEXIFIsDroppedWithAWarning() throws {
        let folder = try ScratchFolder("photos")
        try folder.write(try JPEGEncoder.encode(Image(width: 20, height: 10, fill: Color(red: 255, green: 165, blue: 0)), quality: 92),
                         to: "plain.jpg")
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<65_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let jpeg = insertingSegments(jpegSegment(0xE1, Array("Exif\0\0".utf8) + [0x58, 0x58] + garbage), into: try folder.read("plain.jpg"))
        let path = try folder.write(jpeg, to: "garbage.jpg")
        let harness = StageHarness(DecodeStage.self)
        let image = try harness.runImage(["path": .path(path)])
        #expect(image.metadata.exif == nil)
        #expect(harness.warnings.contains { $0.contains("EXIF") && $0.contains("dropped") })
        #expect(image.width == 20 && image.height == 10)
    }
}
