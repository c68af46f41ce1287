import Foundation
import SumiCodecs
import SumiKit
import Testing

@Suite struct PhotoMetadataReferenceTests {
    let decoder = StageHarness(DecodeStage.self)
    let encoder = StageHarness(EncodeStage.self)

    /// A 64×48 camera JPEG: Orientation 6 (turn 90° clockwise), GPS, a thumbnail, XMP with GPS.
    func cameraJPEG(in folder: ScratchFolder) throws -> String {
        let path = folder.file("camera.jpg")
        let thumb = folder.file("thumb.jpg")
        #expect(try runTool(["/usr/bin/convert", "-size", "64x48", "gradient:red-blue", "-quality", "95", path]).status == 0)
        #expect(try runTool(["/usr/bin/convert", "-size", "16x12", "xc:green", thumb]).status == 0)
        let tagged = try runTool(["/usr/bin/exiftool", "-q", "-overwrite_original", "-Make=Canon", "-Model=EOS R5",
                                  "-Orientation#=6", "-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
                                  "-GPSLongitudeRef=E", "-DateTimeOriginal=2024:05:06 07:08:09", "-ExifImageWidth=64",
                                  "-ExifImageHeight=48", "-XMP-dc:Creator=Ana", "-XMP-exif:GPSLatitude=48.8583",
                                  "-ThumbnailImage<=\(thumb)", path])
        #expect(tagged.status == 0)
        return path
    }

    func recode(_ input: String, to output: String, _ extra: [String: ParamValue] = [:]) throws {
        let image = try decoder.runImage(["path": .path(input)])
        var parameters: [String: ParamValue] = ["path": .path(output)]
        parameters.merge(extra) { $1 }
        _ = try encoder.run(parameters, inputs: ["in": .image(image)])
    }

    @Test(arguments: ["jpg", "png", "webp", "heic", "tif"])
    func exifKeptWithOrientationAppliedAndThumbnailDropped(ext: String) throws {
        let folder = try ScratchFolder("photos")
        let source = try cameraJPEG(in: folder)
        #expect(try exifTool(source)["ThumbnailLength"] != nil)
        let output = folder.file("out.\(ext)")
        try recode(source, to: output)
        let tags = try exifTool(output)
        #expect(tags["Make"] as? String == "Canon")
        #expect(tags["DateTimeOriginal"] as? String == "2024:05:06 07:08:09")
        #expect(tags["Orientation"] as? Int == 1)
        #expect(tags["ExifImageWidth"] as? Int == 48 && tags["ExifImageHeight"] as? Int == 64)
        #expect(tags["ImageWidth"] as? Int == 48 && tags["ImageHeight"] as? Int == 64)
        #expect(tags["ThumbnailLength"] == nil && tags["ThumbnailImage"] == nil)
        #expect(tags["GPSLatitude"] != nil)
        #expect(tags["Creator"] as? String == "Ana")
        #expect(try runTool(["/usr/bin/exiftool", "-validate", "-warning", "-a", output]).status == 0)
    }

    @Test func orientationNotAppliedIsKept() throws {
        let folder = try ScratchFolder("photos")
        let source = try cameraJPEG(in: folder)
        let image = try decoder.runImage(["path": .path(source), "orient": .bool(false)])
        _ = try encoder.run(["path": .path(folder.file("out.jpg"))], inputs: ["in": .image(image)])
        let tags = try exifTool(folder.file("out.jpg"))
        #expect(tags["Orientation"] as? Int == 6)
        #expect(tags["ExifImageWidth"] as? Int == 64)
    }

    @Test func stripLocationRemovesGPSOnly() throws {
        let folder = try ScratchFolder("photos")
        let source = try cameraJPEG(in: folder)
        try recode(source, to: folder.file("out.jpg"), ["metadata": .string("strip-location")])
        let tags = try exifTool(folder.file("out.jpg"))
        #expect(tags.keys.filter { $0.hasPrefix("GPS") }.isEmpty, "GPS tags left: \(tags.keys.filter { $0.hasPrefix("GPS") })")
        #expect(tags["Make"] as? String == "Canon" && tags["Model"] as? String == "EOS R5")
        #expect(tags["Creator"] as? String == "Ana")
        #expect(tags["DateTimeOriginal"] as? String == "2024:05:06 07:08:09")
    }

    @Test func stripRemovesEXIFAndXMP() throws {
        let folder = try ScratchFolder("photos")
        let source = try cameraJPEG(in: folder)
        try recode(source, to: folder.file("out.jpg"), ["metadata": .string("strip")])
        let tags = try exifTool(folder.file("out.jpg"))
        #expect(tags["Make"] == nil && tags["Creator"] == nil && tags["GPSLatitude"] == nil)
        #expect(tags["ImageWidth"] as? Int == 48)
    }

    /// A big-endian EXIF block whose pointers loop back to IFD0 or lead outside the block: decode
    /// and encode finish, and what is written is readable.
    @Test func exifWithLoopingAndOutOfRangeOffsets() throws {
        let folder = try ScratchFolder("photos")
        // IFD0 at 8: Orientation 1, ExifIFD -> 8 (itself), GPS -> 0x7FFFFFF0; next IFD -> 8 (loop).
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 3]
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0]
        tiff += [0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 8]
        tiff += [0x88, 0x25, 0, 4, 0, 0, 0, 1, 0x7F, 0xFF, 0xFF, 0xF0]
        tiff += [0, 0, 0, 8]
        #expect(try runTool(["/usr/bin/convert", "-size", "20x10", "xc:orange", folder.file("plain.jpg")]).status == 0)
        let jpeg = insertingSegments(jpegSegment(0xE1, Array("Exif\0\0".utf8) + tiff), into: try folder.read("plain.jpg"))
        let image = try ImageDecoder.decode(jpeg, name: "loop.jpg")
        #expect(image.metadata.exif != nil)
        for mode in ["keep", "strip-location"] {
            _ = try encoder.run(["path": .path(folder.file("\(mode).jpg")), "metadata": .string(mode)], inputs: ["in": .image(image)])
            let back = try ImageDecoder.decode(try folder.read("\(mode).jpg"), name: "back")
            #expect(back.width == 20)
            #expect(try exifTool(folder.file("\(mode).jpg"))["Orientation"] as? Int == 1)
        }
    }

    @Test func pngAndWebPCarryEXIFAndXMPThroughDecode() throws {
        let folder = try ScratchFolder("photos")
        let source = try cameraJPEG(in: folder)
        for ext in ["png", "webp", "tif"] {
            try recode(source, to: folder.file("a.\(ext)"))
            let image = try ImageDecoder.decode(try folder.read("a.\(ext)"), name: "a.\(ext)")
            #expect(image.metadata.exif != nil && image.metadata.xmp != nil)
            try recode(folder.file("a.\(ext)"), to: folder.file("b.jpg"))
            let tags = try exifTool(folder.file("b.jpg"))
            #expect(tags["Make"] as? String == "Canon" && tags["Creator"] as? String == "Ana" && tags["Orientation"] as? Int == 1)
        }
    }
}
