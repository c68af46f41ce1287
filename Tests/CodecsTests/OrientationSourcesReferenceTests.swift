import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// EXIF orientation outside JPEG — PNG `eXIf`, ImageMagick's raw profile text chunks, WebP `EXIF`,
/// XMP `tiff:Orientation`, TIFF's own tag — applied as Pillow's `exif_transpose` does, by whole and
/// streamed decodes alike. Files are made by ImageMagick and tagged by exiftool; the expectation is
/// the upright picture: its size and where its white marker and quadrants are.
@Suite struct OrientationSourcesReferenceTests {
    let upright = Fixtures.asymmetric()

    /// The upright picture stored as a camera would for `orientation`, written by ImageMagick.
    func stored(_ orientation: Int, as name: String, options: [String] = [], in folder: ScratchFolder) throws -> String {
        let path = folder.file(name)
        try magickWrite(straightPixels(upright), width: upright.width, height: upright.height, to: path,
                        options: (OrientationTests.storedBy[orientation] ?? []) + options, in: folder)
        return path
    }

    func exiftool(_ arguments: [String], _ path: String) throws {
        #expect(try runTool(["/usr/bin/exiftool", "-q", "-q", "-overwrite_original"] + arguments + [path]).status == 0)
    }

    /// The orientation values exiftool reads from `path`, by group.
    func orientations(_ path: String) throws -> [String] {
        try exifToolEntries(path, ["-Orientation"]).map { "\($0.group)=\($0.value)" }
    }

    /// The decoded image is the upright picture, pixel for pixel (lossless sources).
    func expectUpright(_ image: Image, _ what: String, exact: Bool = true) {
        #expect(image.width == upright.width && image.height == upright.height, "\(what): \(image.width)×\(image.height)")
        guard image.width == upright.width && image.height == upright.height else { return }
        if exact { #expect(image.pixels == upright.pixels, "\(what): pixels differ") }
        let marker = image.pixel(x: 8, y: 8)
        #expect(marker.r > 240 && marker.g > 240 && marker.b > 240, "\(what): the marker is not at the top left")
        #expect(image.pixel(x: 50, y: 10).g > 150 && image.pixel(x: 10, y: 40).b > 150, "\(what): quadrants misplaced")
    }

    @Test(arguments: 1...8) func pngEXIf(orientation: Int) throws {
        let folder = try ScratchFolder("png-exif-\(orientation)")
        let path = try stored(orientation, as: "stored.png", in: folder)
        try exiftool(["-Orientation#=\(orientation)"], path)
        #expect(try orientations(path) == ["IFD0=\(orientation)"])
        let image = try decodeBytes(try folder.read("stored.png"))
        expectUpright(image, "PNG eXIf \(orientation)")
        #expect(image.metadata.sourceOrientation == orientation && image.metadata.orientationApplied)
        // orient=false keeps the stored pixels, and says so.
        let kept = try decodeBytes(try folder.read("stored.png"), orient: false)
        #expect((kept.pixels == image.pixels) == (orientation == 1))
        #expect(kept.width == (orientation >= 5 ? 48 : 64))
        #expect(kept.metadata.sourceOrientation == orientation && kept.metadata.orientationApplied == (orientation == 1))
    }

    @Test func webpEXIFChunk() throws {
        let folder = try ScratchFolder("webp-exif")
        let path = try stored(6, as: "stored.webp", options: ["-define", "webp:lossless=true"], in: folder)
        try exiftool(["-Orientation#=6"], path)
        #expect(try orientations(path) == ["IFD0=6"])
        expectUpright(try decodeBytes(try folder.read("stored.webp")), "WebP EXIF 6")
    }

    /// ImageMagick 6.9 writes an APP1 profile as a zTXt "Raw profile type app1" chunk.
    @Test func imageMagickRawProfileChunk() throws {
        let folder = try ScratchFolder("png-raw-profile")
        let camera = try stored(6, as: "camera.jpg", in: folder)
        try exiftool(["-Orientation#=6"], camera)
        #expect(try runTool(["/usr/bin/convert", camera, folder.file("camera.exif")]).status == 0)
        let png = try stored(6, as: "plain.png", in: folder)
        #expect(try runTool(["/usr/bin/convert", png, "-profile", "APP1:\(folder.file("camera.exif"))", folder.file("raw.png")]).status == 0)
        let bytes = try folder.read("raw.png")
        #expect(ExtendedXMP.find(Array("Raw profile type app1".utf8), in: bytes, from: 0) != nil)
        #expect(ExtendedXMP.find(Array("eXIf".utf8), in: bytes, from: 0) == nil)
        expectUpright(try decodeBytes(bytes), "PNG raw profile app1")
    }

    /// The older keyword, "Raw profile type exif" (what Pillow and exiftool read), in a tEXt chunk
    /// laid out as ImageMagick writes it.
    @Test func rawProfileTypeExifTextChunk() throws {
        let folder = try ScratchFolder("png-raw-exif")
        _ = try stored(6, as: "plain.png", in: folder)
        let png = try folder.read("plain.png")
        let exif = Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        var hex = ""
        for (i, byte) in exif.enumerated() {
            hex += String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            if i % 36 == 35 { hex += "\n" }
        }
        let text = "\nexif\n" + String(repeating: " ", count: 8 - String(exif.count).count) + "\(exif.count)\n" + hex + "\n"
        let chunk = pngChunk("tEXt", Array("Raw profile type exif".utf8) + [0] + Array(text.utf8))
        let bytes = Array(png[..<33]) + chunk + png[33...]
        let path = try folder.write(bytes, to: "raw.png")
        #expect(try orientations(path).contains("IFD0=6"), "exiftool does not read the chunk made here")
        expectUpright(try decodeBytes(bytes), "PNG raw profile exif")
    }

    @Test func xmpOnly() throws {
        let folder = try ScratchFolder("png-xmp")
        let path = try stored(6, as: "stored.png", in: folder)
        try exiftool(["-XMP-tiff:Orientation#=6"], path)
        #expect(try orientations(path) == ["XMP-tiff=6"])
        expectUpright(try decodeBytes(try folder.read("stored.png")), "PNG XMP 6")
    }

    /// EXIF and XMP disagree: EXIF wins.
    @Test func exifWinsOverXMP() throws {
        let folder = try ScratchFolder("png-exif-xmp")
        let path = try stored(6, as: "stored.png", in: folder)
        try exiftool(["-IFD0:Orientation#=6", "-XMP-tiff:Orientation#=8"], path)
        #expect(Set(try orientations(path)) == ["IFD0=6", "XMP-tiff=8"])
        expectUpright(try decodeBytes(try folder.read("stored.png")), "PNG EXIF 6, XMP 8")
    }

    @Test(arguments: 2...8) func tiffOrientationTag(orientation: Int) throws {
        let folder = try ScratchFolder("tiff-\(orientation)")
        let names = [2: "TopRight", 3: "BottomRight", 4: "BottomLeft", 5: "LeftTop", 6: "RightTop", 7: "RightBottom",
                     8: "LeftBottom"]
        let path = try stored(orientation, as: "stored.tif", options: ["-orient", names[orientation] ?? ""], in: folder)
        #expect(try orientations(path) == ["IFD0=\(orientation)"])
        expectUpright(try decodeBytes(try folder.read("stored.tif")), "TIFF Orientation \(orientation)")
    }

    /// The streamed decode of a PNG or WebP to turn falls back to the whole decode; an upright one
    /// streams the same bytes as before.
    @Test func streamedDecodeTurnsToo() throws {
        let folder = try ScratchFolder("stream-orient")
        let harness = StageHarness(DecodeStage.self)
        for name in ["stored.png", "stored.webp"] {
            let path = try stored(6, as: name, options: name.hasSuffix("webp") ? ["-define", "webp:lossless=true"] : [], in: folder)
            try exiftool(["-Orientation#=6"], path)
            guard case .image(let streamed) = try harness.runRows(["path": .path(path)]) else { Issue.record("no image"); continue }
            expectUpright(streamed, "streamed \(name)")
            #expect(streamed.pixels == (try harness.runImage(["path": .path(path)])).pixels)
            let plain = try stored(1, as: "upright-\(name)", options: name.hasSuffix("webp") ? ["-define", "webp:lossless=true"] : [], in: folder)
            guard case .image(let uprightStream) = try harness.runRows(["path": .path(plain)]) else { Issue.record("no image"); continue }
            #expect(uprightStream.pixels == upright.pixels)
        }
    }

    /// Two Orientation entries in IFD0 (6, then 8), another in the EXIF sub-IFD and XMP saying 8:
    /// the pixels are turned by the first, and every orientation record written is 1.
    @Test(arguments: ["jpg", "png", "webp", "tif", "heic"])
    func everyOrientationRecordIsOneOnceApplied(format: String) throws {
        let folder = try ScratchFolder("dup-orientation-\(format)")
        var plan = MetadataGenerator.EXIFPlan()
        plan.orientations = [.ifd0: [6, 8], .exif: [8]]
        plan.gpsPointers = []
        _ = try stored(6, as: "stored.jpg", options: ["-quality", "95"], in: folder)
        let xmp = Array(#"""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="8"/>
            </rdf:RDF></x:xmpmeta>
            """#.utf8)
        let jpeg = MetadataGenerator.jpeg(try folder.read("stored.jpg"), inserting: [
            MetadataGenerator.exifSegmentBody(MetadataGenerator.exif(plan)), MetadataGenerator.xmpSignature + xmp,
        ])
        let source = try folder.write(jpeg, to: "two.jpg")
        #expect(Set(try orientations(source)) == ["IFD0=6", "IFD0=8", "ExifIFD=8", "XMP-tiff=8"])
        let image = try StageHarness(DecodeStage.self).runImage(["path": .path(source)])
        expectUpright(image, "JPEG 6 then 8", exact: false)
        let output = folder.file("out.\(format)")
        _ = try StageHarness(EncodeStage.self).run(["path": .path(output)], inputs: ["in": .image(image)])
        let written = try orientations(output)
        #expect(!written.isEmpty && written.allSatisfy { $0.hasSuffix("=1") }, "\(format): \(written)")
    }
}
