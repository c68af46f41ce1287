import Foundation
import SumiCodecs
import SumiKit
import Testing

@Suite struct HEIFTests {
    let encoder = StageHarness(EncodeStage.self)

    /// A HEIC written by the encode stage (libheif in-process): the input the header checks cut and patch.
    func heicInProcess(_ folder: ScratchFolder) throws -> String {
        let heic = folder.file("photo.heic")
        _ = try encoder.run(["path": .path(heic), "quality": .integer(90)], inputs: ["in": .image(Fixtures.smooth(width: 96, height: 64))])
        return heic
    }

    @Test func maxPixelsIsCheckedFromTheHeader() throws {
        let folder = try ScratchFolder("photos")
        _ = try heicInProcess(folder)
        var bytes = try folder.read("photo.heic")
        // Every ispe box claims 100000×100000.
        let ispe = Array("ispe".utf8)
        var patched = 0
        for at in 4..<(bytes.count - 16) where Array(bytes[at..<(at + 4)]) == ispe {
            for field in [at + 8, at + 12] { bytes.replaceSubrange(field..<(field + 4), with: [0x00, 0x01, 0x86, 0xA0]) }
            patched += 1
        }
        #expect(patched > 0)
        let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "huge.heic") }
        #expect(message?.contains("huge.heic") == true)
        #expect(message?.contains("100000x100000") == true || message?.contains("limit") == true, "\(message ?? "")")
    }

    @Test func truncatedHEICIsAnError() throws {
        let folder = try ScratchFolder("photos")
        _ = try heicInProcess(folder)
        let bytes = try folder.read("photo.heic")
        for length in [bytes.count / 2, bytes.count - 20, 40] {
            let message = errorMessage { _ = try ImageDecoder.decode(Array(bytes.prefix(length)), name: "cut.heic") }
            #expect(message?.hasPrefix("cut.heic: ") == true, "\(length): \(message ?? "no error")")
        }
    }

    @Test func heifWithoutPrimaryImageIsAnError() throws {
        let folder = try ScratchFolder("photos")
        _ = try heicInProcess(folder)
        var bytes = try folder.read("photo.heic")
        let pitm = Array("pitm".utf8)
        let at = try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == pitm })
        bytes.replaceSubrange(at..<(at + 4), with: Array("free".utf8))
        let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "noprimary.heic") }
        #expect(message?.hasPrefix("noprimary.heic: ") == true, "\(message ?? "no error")")
    }
}
