import Foundation
import Testing
import SumiKit
@testable import SumiPage

/// `stitch` (rows out) and `pdf-page` (rows in) through small rings driven with odd bands
/// (`RingPattern.standard`): the bytes of the whole-image run, the page the captures were taken
/// from, and the pixels poppler's `pdfimages` extracts from the file.
@Suite struct RingPatternPageTests {
    /// The file with its `/CreationDate` blanked (two runs differ in nothing else).
    func undated(_ path: String) throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let key = Array("/CreationDate (".utf8)
        guard let start = (0...(bytes.count - key.count)).first(where: { bytes[$0..<($0 + key.count)].elementsEqual(key) }) else {
            return bytes
        }
        var i = start + key.count
        while i < bytes.count && bytes[i] != UInt8(ascii: ")") { bytes[i] = UInt8(ascii: "-"); i += 1 }
        return bytes
    }

    @Test(arguments: RingPattern.standard)
    func stitch(pattern: RingPattern) throws {
        let page = Synthetic.page(width: 120, height: 900, header: 24, footer: 20, seed: 13)
        let positions = Synthetic.scrollPositions(pageHeight: 900, viewport: 300, header: 24, footer: 20, overlap: 0.3)
        let shots = positions.map { Synthetic.capture(of: page, at: $0, viewport: 300, header: 24, footer: 20) }
        let harness = StageHarness(StitchStage.self)
        for order in [Array(shots.indices), Array(shots.indices.reversed())] {
            let inputs: [String: Value] = ["in": .images(ImageList(order.map { shots[$0] }))]
            let whole = try harness.runImage([:], inputs: inputs)
            let run = try harness.runRing([:], inputs: inputs, pattern: pattern)
            guard case .image(let ringed) = run.value else { Issue.record("no image"); return }
            #expect(ringed.pixels == page.pixels, "\(pattern)")
            #expect(ringed.pixels == whole.pixels && ringed.metadata.captureRects == whole.metadata.captureRects)
            let ring = try #require(run.output)
            #expect(ring.mostRowsHeld <= ring.slots && ring.height == 900)
            if ring.slots < 900 { #expect(ring.releasedBeforeEnd >= 900 - ring.slots, "\(pattern): the page was held whole") }
        }
    }

    /// Writes `image` through the ring and whole: the same file but for its date.
    func pageBoth(_ image: Image, _ parameters: [String: ParamValue], _ pattern: RingPattern, in scratch: Scratch) throws -> String {
        let harness = StageHarness(PDFPageStage.self)
        let wholePath = scratch.file("whole.pdf"), ringPath = scratch.file("ring.pdf")
        _ = try harness.run(parameters.merging(["path": .path(wholePath)]) { $1 }, inputs: ["in": .image(image)])
        let run = try harness.runRing(parameters.merging(["path": .path(ringPath)]) { $1 }, inputs: ["in": .image(image)], pattern: pattern)
        guard case .file(let file) = run.value else { throw ToolFailure("pdf-page gave no file") }
        #expect(file.pages == 1 && file.width == Double(image.width))
        #expect(try undated(ringPath) == (try undated(wholePath)), "\(parameters) \(pattern)")
        let ring = try #require(run.inputs["in"])
        #expect(ring.mostRowsHeld <= ring.slots)
        if ring.slots < image.height { #expect(ring.releasedBeforeEnd >= image.height - ring.slots) }
        return ringPath
    }

}
