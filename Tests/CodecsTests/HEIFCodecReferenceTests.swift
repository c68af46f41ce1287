import Foundation
import SumiCodecs
import SumiKit
import Testing

/// HEIF files libheif's heif-enc makes, and decodes compared with its heif-convert (`make test`;
/// HEIFTests runs in `make check`).
@Suite struct HEIFCodecReferenceTests {
    let encoder = StageHarness(EncodeStage.self)

    /// A HEIC made by libheif's own heif-enc from a JPEG carrying Adobe RGB and EXIF.
    func heicFromHeifEnc(_ folder: ScratchFolder, size: String = "96x64") throws -> String {
        let jpeg = folder.file("source.jpg")
        #expect(try runTool(["/usr/bin/convert", "-size", size, "gradient:#d03020-#2040c0", "-profile",
                             TestProfiles.adobeRGBPath, "-quality", "95", jpeg]).status == 0)
        #expect(try runTool(["/usr/bin/exiftool", "-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 15",
                             "-DateTimeOriginal=2024:01:02 03:04:05", jpeg]).status == 0)
        let heic = folder.file("photo.heic")
        #expect(try runTool(["/usr/bin/heif-enc", "-q", "90", jpeg, "-o", heic]).status == 0)
        return heic
    }

    @Test func decodesHeifEncOutputWithProfileAndEXIF() throws {
        let folder = try ScratchFolder("photos")
        let heic = try heicFromHeifEnc(folder)
        let image = try ImageDecoder.decode(try folder.read("photo.heic"), name: heic)
        #expect(image.width == 96 && image.height == 64)
        #expect(image.metadata.sourceFormat == "heif")
        #expect(image.metadata.iccProfile == (try TestProfiles.load(TestProfiles.adobeRGBPath)))
        let tags = try #require(image.metadata.exif)
        #expect(tags.count > 8)
        // Pixels match heif-convert's decode of the same file.
        #expect(try runTool(["/usr/bin/heif-convert", heic, folder.file("reference.png")]).status == 0)
        let reference = try ImageDecoder.decode(try folder.read("reference.png"), name: "reference.png")
        #expect(psnr(image, reference) > 40)
    }
    @Test func alphaSurvivesHEIFDecode() throws {
        let folder = try ScratchFolder("photos")
        let (translucent, _) = Fixtures.translucent(width: 64, height: 48)
        _ = try encoder.run(["path": .path(folder.file("a.png"))], inputs: ["in": .image(translucent)])
        #expect(try runTool(["/usr/bin/heif-enc", "-L", folder.file("a.png"), "-o", folder.file("a.heic")]).status == 0)
        let image = try ImageDecoder.decode(try folder.read("a.heic"), name: "a.heic")
        #expect(!image.isOpaque)
        var worst = 0
        for i in stride(from: 3, to: image.pixels.count, by: 4) { worst = max(worst, abs(Int(image.pixels[i]) - Int(translucent.pixels[i]))) }
        #expect(worst <= 2)
    }
    @Test(arguments: ["heic", "avif"])
    func encodesWithQuality(ext: String) throws {
        let folder = try ScratchFolder("photos")
        let smooth = Fixtures.smooth(width: 96, height: 64)
        _ = try encoder.run(["path": .path(folder.file("hi.\(ext)")), "quality": .integer(90)], inputs: ["in": .image(smooth)])
        _ = try encoder.run(["path": .path(folder.file("lo.\(ext)")), "quality": .integer(20)], inputs: ["in": .image(smooth)])
        #expect(try folder.read("lo.\(ext)").count < (try folder.read("hi.\(ext)")).count)
        #expect(try runTool(["/usr/bin/heif-convert", folder.file("hi.\(ext)"), folder.file("hi.png")]).status == 0)
        let decoded = try ImageDecoder.decode(try folder.read("hi.png"), name: "hi.png")
        #expect(psnr(smooth, decoded) > 35)
        #expect(ImageFormat(detecting: try folder.read("hi.\(ext)")) == (ext == "avif" ? .avif : .heif))
    }
}
