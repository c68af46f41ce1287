import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// Grid, clap and overlay decodes compared with libheif's heif-convert (`make test`).
@Suite struct HEIFItemGraphReferenceTests {
    @Test func gridDecodesAtItsCanvasLikeHeifConvert() throws {
        let folder = try ScratchFolder("photos")
        // Four tiles on a canvas that crops the last column and row, and an ispe that agrees.
        let bytes = HEIFItemGraphTests.grid(rows: 2, columns: 2, width: 100, height: 120, ispe: (100, 120))
        let path = try folder.write(bytes, to: "grid.heic")
        let image = try ImageDecoder.decode(bytes, name: "grid.heic")
        try #require(image.width == 100 && image.height == 120)
        #expect(try runTool(["/usr/bin/heif-convert", path, folder.file("reference.png")]).status == 0)
        let reference = try ImageDecoder.decode(try folder.read("reference.png"), name: "reference.png")
        try #require(reference.width == 100 && reference.height == 120)
        #expect(psnr(image, reference) > 40)
    }

    @Test func validClapCropsLikeHeifConvert() throws {
        let folder = try ScratchFolder("photos")
        var cropped = HEIFFileBuilder()
        cropped.items = [HEIFFileBuilder.tile(id: 1, extra: [HEIFFileBuilder.clap(width: 40, height: 24)])]
        let path = try folder.write(cropped.build(), to: "crop.heic")
        let image = try ImageDecoder.decode(cropped.build(), name: "crop.heic")
        #expect(try runTool(["/usr/bin/heif-convert", path, folder.file("reference.png")]).status == 0)
        let reference = try ImageDecoder.decode(try folder.read("reference.png"), name: "reference.png")
        try #require(image.width == reference.width && image.height == reference.height && image.width == 40 && image.height == 24)
        #expect(psnr(image, reference) > 40)
    }

    @Test func overlayDecodesLikeHeifConvert() throws {
        let folder = try ScratchFolder("photos")
        let bytes = HEIFItemGraphTests.overlay([(0, 0), (40, 30)])
        let path = try folder.write(bytes, to: "overlay.heic")
        let image = try ImageDecoder.decode(bytes, name: "overlay.heic")
        #expect(try runTool(["/usr/bin/heif-convert", path, folder.file("reference.png")]).status == 0)
        let reference = try ImageDecoder.decode(try folder.read("reference.png"), name: "reference.png")
        try #require(image.width == 96 && image.height == 80 && reference.width == 96 && reference.height == 80)
        #expect(psnr(image, reference) > 40)
    }
}
