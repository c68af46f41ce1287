import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// Extended XMP as exiftool reads what we write, and exiftool's Extended XMP as we read it (`make test`).
@Suite struct ExtendedXMPReferenceTests {
    @Test func exiftoolReadsTheExtendedXMPWeWrite() throws {
        let folder = try ScratchFolder("photos")
        let (packet, description) = ExtendedXMPTests.largeXMP(size: 150_000)
        let path = try ExtendedXMPTests().writeJPEG(xmp: packet, in: folder)
        let jpeg = try folder.read("big.jpg")
        // One main packet naming the GUID; three extension segments (65458 bytes a portion).
        let main = ExtendedXMPTests.segments(jpeg, JPEGSegments.xmpSignature)
        let extensions = ExtendedXMPTests.segments(jpeg, ExtendedXMP.signature)
        #expect(main.count == 1 && extensions.count == 3)
        let guid = try #require(ExtendedXMP.guid(in: Array(main[0].dropFirst(JPEGSegments.xmpSignature.count))))
        for body in extensions {
            #expect(String(decoding: body.dropFirst(ExtendedXMP.signature.count).prefix(32), as: UTF8.self) == guid)
        }
        // exiftool reassembles it: the whole description, no warning.
        let tags = try exifTool(path)
        #expect((tags["Description"] as? String)?.count == description.count)
        #expect(tags["Description"] as? String == description)
        #expect(tags["Creator"] as? String == "Sumi Test")
        #expect(tags["Warning"] == nil, "\(tags["Warning"] ?? "")")
        // So does the decoder; written again, it is the same.
        var warnings: [String] = []
        let decoded = try ImageDecoder.decode(jpeg, name: "big.jpg", warn: { warnings.append($0) })
        #expect(warnings.isEmpty, "\(warnings)")
        let xmp = String(decoding: try #require(decoded.metadata.xmp), as: UTF8.self)
        #expect(xmp.contains(description) && xmp.contains("Sumi Test") && !xmp.contains("HasExtendedXMP"))
        let again = try ExtendedXMPTests().writeJPEG(xmp: try #require(decoded.metadata.xmp), in: folder)
        #expect(try exifTool(again)["Description"] as? String == description)
    }

    @Test func exiftoolsExtendedXMPIsRead() throws {
        let folder = try ScratchFolder("photos")
        let path = folder.file("plain.jpg")
        _ = try StageHarness(EncodeStage.self).run(["path": .path(path)], inputs: ["in": .image(Fixtures.smooth(width: 48, height: 32))])
        let description = ExtendedXMPTests.largeXMP(size: 100_000).description
        let text = try folder.write(Array(description.utf8), to: "description.txt")
        #expect(try runTool(["/usr/bin/exiftool", "-q", "-overwrite_original", "-XMP-dc:Description<=\(text)", path]).status == 0)
        #expect(ExtendedXMPTests.segments(try folder.read("plain.jpg"), ExtendedXMP.signature).count >= 2, "exiftool wrote Extended XMP")
        var warnings: [String] = []
        let decoded = try ImageDecoder.decode(try folder.read("plain.jpg"), name: "plain.jpg", warn: { warnings.append($0) })
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(String(decoding: try #require(decoded.metadata.xmp), as: UTF8.self).contains(description))
    }
}
