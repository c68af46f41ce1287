import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// EXIF maker notes in TIFF output: kept as an opaque blob when self-contained (checked with
/// exiftool's Nikon decoder), left out when its offsets count from the EXIF block.
@Suite struct MakerNoteReferenceTests {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
    static func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
    }

    /// A Nikon type 3 maker note: "Nikon\0", version, then a TIFF header of its own whose offsets
    /// count from it (ISO 200, Quality FINE, WhiteBalance AUTO).
    static let nikonNote: [UInt8] = {
        let quality = Array("FINE   \0".utf8), balance = Array("AUTO        \0".utf8)
        var inner = Array("II*\0".utf8) + le32(8) + le16(3)
        inner += entry(0x0002, 3, 2, le16(0) + le16(200))
        inner += entry(0x0004, 2, quality.count, le32(50))
        inner += entry(0x0005, 2, balance.count, le32(50 + quality.count))
        inner += le32(0)
        return Array("Nikon\0".utf8) + [0x02, 0x10, 0x00, 0x00] + inner + quality + balance
    }()

    /// A little-endian EXIF block: IFD0 with Make, the EXIF IFD with the maker note.
    static func exif(make: String, makerNote: [UInt8]) -> [UInt8] {
        let makeBytes = Array(make.utf8) + [0]
        let makeAt = 8 + 2 + 24 + 4, exifAt = makeAt + makeBytes.count, noteAt = exifAt + 2 + 12 + 4
        var block = Array("II*\0".utf8) + le32(8) + le16(2)
        block += entry(0x010F, 2, makeBytes.count, makeBytes.count <= 4 ? makeBytes : le32(makeAt))
        block += entry(0x8769, 4, 1, le32(exifAt)) + le32(0)
        block += makeBytes
        block += le16(1) + entry(0x927C, 7, makerNote.count, le32(noteAt)) + le32(0)
        return block + makerNote
    }

    /// A string tag as exiftool gives it with -n (fixed-width fields keep their padding).
    static func text(_ tags: [String: Any], _ name: String) -> String? {
        (tags[name] as? String)?.trimmingCharacters(in: .whitespaces)
    }

    @Test func selfContainedMakerNoteSurvivesJPEGToTIFF() throws {
        let folder = try ScratchFolder("photos")
        var image = Fixtures.smooth(width: 48, height: 32)
        image.metadata.exif = Self.exif(make: "NIKON CORPORATION", makerNote: Self.nikonNote)
        let encoder = StageHarness(EncodeStage.self)
        _ = try encoder.run(["path": .path(folder.file("camera.jpg"))], inputs: ["in": .image(image)])
        // exiftool reads the maker note we made (the JPEG keeps it where it was).
        let source = try exifTool(folder.file("camera.jpg"))
        #expect(Self.text(source, "Quality") == "FINE" && Self.text(source, "WhiteBalance") == "AUTO", "\(source)")

        let decoded = try decodeBytes(try folder.read("camera.jpg"))
        _ = try encoder.run(["path": .path(folder.file("out.tiff"))], inputs: ["in": .image(decoded)])
        let tags = try exifTool(folder.file("out.tiff"))
        #expect(tags["Make"] as? String == "NIKON CORPORATION")
        #expect(Self.text(tags, "Quality") == "FINE", "\(tags)")
        #expect(Self.text(tags, "WhiteBalance") == "AUTO")
        #expect("\(tags["ISO"] ?? "")".contains("200"))
        #expect(tags["Warning"] == nil, "\(tags["Warning"] ?? "")")
        // And back from the TIFF into a JPEG.
        let fromTIFF = try decodeBytes(try folder.read("out.tiff"))
        _ = try encoder.run(["path": .path(folder.file("again.jpg"))], inputs: ["in": .image(fromTIFF)])
        #expect(Self.text(try exifTool(folder.file("again.jpg")), "Quality") == "FINE")
    }

    @Test func positionDependentMakerNoteIsLeftOut() throws {
        // Canon style: a bare directory whose out-of-line value is at an offset in the EXIF block.
        let canon = Self.le16(1) + Self.entry(0x0006, 2, 20, Self.le32(200)) + Self.le32(0)
        #expect(!MakerNote.isSelfContained(canon[...], littleEndian: true))
        // Values that fit their entries, and blobs that are no directory, move safely.
        let inline = Self.le16(1) + Self.entry(0x0001, 3, 2, Self.le16(1) + Self.le16(2)) + Self.le32(0)
        #expect(MakerNote.isSelfContained(inline[...], littleEndian: true))
        #expect(MakerNote.isSelfContained(Array("opaque vendor data".utf8)[...], littleEndian: true))
        #expect(MakerNote.isSelfContained(Self.nikonNote[...], littleEndian: true))

        let folder = try ScratchFolder("photos")
        var image = Fixtures.smooth(width: 48, height: 32)
        image.metadata.exif = Self.exif(make: "Canon", makerNote: canon + [UInt8](repeating: 0x41, count: 40))
        _ = try StageHarness(EncodeStage.self).run(["path": .path(folder.file("out.tiff"))], inputs: ["in": .image(image)])
        let tags = try exifTool(folder.file("out.tiff"), ["-MakerNotes:all", "-Make", "-Warning"])
        #expect(tags["Make"] as? String == "Canon")
        #expect(tags.keys.filter { $0 != "SourceFile" && $0 != "Make" }.isEmpty, "\(tags)")
    }
}
