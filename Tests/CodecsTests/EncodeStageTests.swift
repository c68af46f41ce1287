import Foundation
import SumiCodecs
import SumiKit
import Testing

/// A layer content that draws a fixed image at scale 1 (and records the scale it was asked for).
struct FixedLayerContent: LayerContent {
    let image: Image
    var size: Size { Size(width: Double(image.width), height: Double(image.height)) }
    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        guard scaleX == 1, scaleY == 1, phase == Point(x: 0, y: 0) else { throw StageError("unexpected scale") }
        return image
    }
}

@Suite struct EncodeStageTests {
    let harness = StageHarness(EncodeStage.self)

    func encode(_ image: Image, _ parameters: [String: ParamValue]) throws -> FileOutput {
        guard case .file(let output) = try harness.run(parameters, inputs: ["in": .image(image)]) else {
            throw StageError("expected a file")
        }
        return output
    }

    @Test func formatsWithoutAlphaFlattenOntoBackground() throws {
        let folder = try ScratchFolder("encode-background")
        let clear = Image(width: 8, height: 8, fill: .transparent)
        _ = try encode(clear, ["path": .path(folder.file("a.bmp")), "background": .color(Color(red: 0, green: 128, blue: 255))])
        let bmp = try decodeBytes(try folder.read("a.bmp"))
        #expect(bmp.pixel(x: 3, y: 3) == (0, 128, 255, 255))
        _ = try encode(clear, ["path": .path(folder.file("a.jpg"))])
        let jpg = try decodeBytes(try folder.read("a.jpg"))
        #expect(jpg.pixel(x: 3, y: 3).r >= 250 && jpg.pixel(x: 3, y: 3).b >= 250)  // white by default
    }

    @Test func formatParameterOverridesTheExtension() throws {
        let folder = try ScratchFolder("encode-format")
        let output = try encode(Fixtures.asymmetric(), ["path": .path(folder.file("picture.dat")), "format": .string("jpg")])
        #expect(output.format == "jpeg")
        #expect(Array(try folder.read("picture.dat").prefix(3)) == [0xFF, 0xD8, 0xFF])
    }

    @Test func unknownFormatIsAParameterError() throws {
        let folder = try ScratchFolder("unknown-format")
        for path in [folder.file("out.xyz"), folder.file("out")] {
            let error = #expect(throws: StageError.self, "\(path) should be refused") { _ = try harness.make(["path": .path(path)]) }
            #expect(error?.isUsageError == true && error?.parameter == "format")
            #expect(error?.message.contains("png, jpeg, webp, tiff, bmp") == true, "\(error?.message ?? "")")
        }
        #expect(throws: StageError.self) { _ = try harness.make(["path": .path(folder.file("a.png")), "format": .string("gif")]) }
    }

    @Test func standardOutputNeedsNoFormat() throws {
        // `-` takes the source's format at run time (see the end-to-end stdout test), where a file
        // name without an extension and no `format` is refused.
        let stage = try harness.make(["path": .path("-")])
        let folder = try ScratchFolder("stdout-format")
        #expect(throws: StageError.self) { _ = try harness.make(["path": .path(folder.file("noextension"))]) }
        // And it writes nothing at validation: a stage made for `-` exists without touching stdout.
        #expect(String(describing: type(of: stage)) == "EncodeStage")
    }

    @Test func parametersThatDoNotApplyAreWarnedAboutAndIgnored() throws {
        let folder = try ScratchFolder("encode-warnings")
        let warned = StageHarness(EncodeStage.self)
        _ = try warned.run(["path": .path(folder.file("a.png")), "quality": .integer(50), "background": .color(.black)],
                           inputs: ["in": .image(Fixtures.asymmetric())])
        #expect(warned.warnings == ["parameter \"quality\" does not apply to png output; ignored",
                                    "parameter \"background\" does not apply to png output; ignored"])
        let quiet = StageHarness(EncodeStage.self)
        _ = try quiet.run(["path": .path(folder.file("a.jpg")), "quality": .integer(50)],
                          inputs: ["in": .image(Fixtures.asymmetric())])
        _ = try quiet.run(["path": .path(folder.file("b.png")), "compression": .integer(9)],
                          inputs: ["in": .image(Fixtures.asymmetric())])
        #expect(quiet.warnings.isEmpty)
        let jpeg = StageHarness(EncodeStage.self)
        _ = try jpeg.run(["path": .path(folder.file("c.jpg")), "compression": .integer(9)],
                         inputs: ["in": .image(Fixtures.asymmetric())])
        #expect(jpeg.warnings == ["parameter \"compression\" does not apply to jpeg output; ignored"])
    }

    @Test func unwritableFolderIsAnErrorAndCreatesNothing() throws {
        let folder = try ScratchFolder("encode-unwritable")
        let path = folder.file("missing/out.png")
        let message = errorMessage { _ = try encode(Fixtures.asymmetric(), ["path": .path(path)]) }
        #expect(message == "\(path): cannot write: No such file or directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func failedEncodeLeavesTheExistingFileAlone() throws {
        let folder = try ScratchFolder("encode-fail")
        let path = try folder.write(Array("precious".utf8), to: "out.jpg")
        let tooWide = Image(width: 70_000, height: 1, fill: .black)
        let message = errorMessage { _ = try encode(tooWide, ["path": .path(path)]) }
        #expect(message == "\(path): image is 70000x1; JPEG allows at most 65500 pixels a side")
        #expect(try folder.read("out.jpg") == Array("precious".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.jpg"])
    }

}
