import Foundation
import SumiCodecs
import SumiKit
@testable import SumiPage
import Testing

/// ICC profiles in pdf-page's files as qpdf reads them (`make test`).
@Suite struct ColourPageReferenceTests {
    let base = ColourPageTests()
    static let adobePath = ColourPageTests.adobePath

    @Test func adobeRGBImageGetsICCBased() throws {
        let scratch = Scratch("pdf-icc")
        defer { scratch.cleanUp() }
        let path = scratch.file("a.pdf")
        _ = try StageHarness(PDFPageStage.self).run(["path": .path(path)], inputs: ["in": .image(base.tagged(.white, try base.adobe()))])
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let (dictionary, profile) = try base.imageColourSpace(path)
        #expect(dictionary.contains("/ICCBased"))
        #expect(profile == (try base.adobe()))
    }

    @Test func srgbImageStaysDeviceRGB() throws {
        let scratch = Scratch("pdf-srgb")
        defer { scratch.cleanUp() }
        let path = scratch.file("a.pdf")
        _ = try StageHarness(PDFPageStage.self).run(["path": .path(path)], inputs: ["in": .image(base.tagged(.white, nil))])
        let (dictionary, profile) = try base.imageColourSpace(path)
        #expect(dictionary.contains("/DeviceRGB") && profile == nil)
    }

    @Test func passedThroughJPEGKeepsAPP2AndGetsICCBased() throws {
        let scratch = Scratch("pdf-jpeg")
        defer { scratch.cleanUp() }
        let jpeg = scratch.file("a.jpg")
        #expect(try runTool("/usr/bin/convert", ["-size", "40x30", "xc:#c04020", "-profile", Self.adobePath, jpeg]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: jpeg)))
        let image = try ImageDecoder.decode(bytes, name: jpeg)
        #expect(image.metadata.sourceBytes == bytes)
        let path = scratch.file("a.pdf")
        _ = try StageHarness(PDFPageStage.self).run(["path": .path(path)], inputs: ["in": .image(image)])
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        let (dictionary, profile) = try base.imageColourSpace(path)
        #expect(dictionary.contains("/DCTDecode") && dictionary.contains("/ICCBased"))
        #expect(profile == (try base.adobe()))
        // The JPEG inside is the file itself, APP2 included.
        let pdf = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(pdf.count > bytes.count && String(decoding: pdf, as: UTF8.self).contains("ICC_PROFILE"))
    }
}
