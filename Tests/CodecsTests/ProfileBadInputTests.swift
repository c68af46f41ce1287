import Foundation
import SumiCodecs
import SumiKit
import Testing

@Suite struct ProfileBadInputTests {
    /// ICC APP2 segments of `profile` split into `count` chunks, in the order `order` (1-based).
    func iccSegments(_ profile: [UInt8], count: Int, order: [Int]) -> [UInt8] {
        let size = (profile.count + count - 1) / count
        return order.flatMap { number -> [UInt8] in
            let part = Array(profile[((number - 1) * size)..<min(profile.count, number * size)])
            return jpegSegment(0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(number), UInt8(count)] + part)
        }
    }

    func plainJPEG(_ folder: ScratchFolder) throws -> [UInt8] {
        try JPEGEncoder.encode(Image(width: 16, height: 8, fill: Color(red: 0xC8, green: 0x32, blue: 0x28)), quality: 92)
    }

    func decodeWarnings(_ bytes: [UInt8]) throws -> (Image, [String]) {
        final class Box: @unchecked Sendable { var warnings: [String] = [] }
        let box = Box()
        let image = try ImageDecoder.decode(bytes, name: "x.jpg", warn: { box.warnings.append($0) })
        return (image, box.warnings)
    }

    @Test func chunksOutOfOrderAreJoinedBySequence() throws {
        let folder = try ScratchFolder("photos")
        let adobe = try TestProfiles.load(TestProfiles.adobeRGBPath)
        let jpeg = insertingSegments(iccSegments(adobe, count: 3, order: [3, 1, 2]), into: try plainJPEG(folder))
        let (image, warnings) = try decodeWarnings(jpeg)
        #expect(image.metadata.iccProfile == adobe)
        #expect(warnings.isEmpty)
    }

    @Test func aMissingChunkDropsTheProfileWithAWarning() throws {
        let folder = try ScratchFolder("photos")
        let adobe = try TestProfiles.load(TestProfiles.adobeRGBPath)
        let jpeg = insertingSegments(iccSegments(adobe, count: 3, order: [1, 3]), into: try plainJPEG(folder))
        let (image, warnings) = try decodeWarnings(jpeg)
        #expect(image.metadata.iccProfile == nil)
        #expect(warnings.contains { $0.contains("incomplete") && $0.contains("sRGB") })
    }

    @Test func truncatedAndCorruptProfilesAreTreatedAsSRGB() throws {
        let folder = try ScratchFolder("photos")
        let adobe = try TestProfiles.load(TestProfiles.adobeRGBPath)
        let plain = try plainJPEG(folder)
        let truncated = insertingSegments(iccSegments(Array(adobe.prefix(adobe.count / 2)), count: 1, order: [1]), into: plain)
        let (image, warnings) = try decodeWarnings(truncated)
        #expect(image.metadata.iccProfile == nil)
        #expect(warnings.contains { $0.contains("truncated") && $0.contains("sRGB") })

        var corrupt = adobe
        for i in 128..<min(corrupt.count, 400) { corrupt[i] = 0xEE }   // the tag table
        let (image2, warnings2) = try decodeWarnings(insertingSegments(iccSegments(corrupt, count: 1, order: [1]), into: plain))
        #expect(image2.metadata.iccProfile == nil)
        #expect(warnings2.contains { $0.contains("sRGB") })
        // The pixels are still decoded, and an encode writes no profile.
        #expect(image2.pixel(x: 2, y: 2).r > 150)
    }

    @Test func aNonRGBProfileIsIgnored() throws {
        let folder = try ScratchFolder("photos")
        let gray = try TestProfiles.load("/usr/share/color/icc/Gray.icc")
        let (image, warnings) = try decodeWarnings(insertingSegments(iccSegments(gray, count: 1, order: [1]), into: try plainJPEG(folder)))
        #expect(image.metadata.iccProfile == nil)
        #expect(warnings.contains { $0.contains("not RGB") })
    }
}
