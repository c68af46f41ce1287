import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// pdf-page's files from ring-pattern inputs as qpdf and poppler read them (`make test`).
@Suite struct RingPatternPageReferenceTests {
    @Test(arguments: RingPattern.standard)
    func pdfPage(pattern: RingPattern) throws {
        let scratch = Scratch("ring-pdf")
        defer { scratch.cleanUp() }
        let opaque = Synthetic.page(width: 90, height: 211, header: 20, footer: 20, seed: 4)
        let path = try RingPatternPageTests().pageBoth(opaque, [:], pattern, in: scratch)
        #expect(try runTool("/usr/bin/qpdf", ["--check", path]).status == 0)
        #expect(try runTool("/usr/bin/pdfimages", ["-png", path, scratch.file("img")]).status == 0)
        #expect(try readRGBA(scratch.file("img-000.png"), width: 90, height: 211) == opaque.pixels)
        // Translucent (a soft mask), and the JPEG compression that collects the image first.
        _ = try RingPatternPageTests().pageBoth(TestImage.noise(90, 211, seed: 8), [:], pattern, in: scratch)
        _ = try RingPatternPageTests().pageBoth(opaque, ["compression": .string("jpeg")], pattern, in: scratch)
    }
}
