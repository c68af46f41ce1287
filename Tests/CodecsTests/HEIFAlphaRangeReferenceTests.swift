import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// Limited-range AV1 alpha expanded as libheif's heif-convert expands it, on a file heif-enc made (`make test`).
@Suite struct HEIFAlphaRangeReferenceTests {
    @Test func limitedRangeAlphaIsExpanded() throws {
        let folder = try ScratchFolder("photos")
        let source = folder.file("source.png")
        #expect(try runTool(["/usr/bin/convert", "-size", "48x32", "gradient:red-blue", "-depth", "8", "-alpha", "set",
                             "-channel", "A", "-fx", "i/w", "+channel", source]).status == 0)
        #expect(try runTool(["/usr/bin/heif-enc", "-A", "-q", "90", source, "-o", folder.file("full.avif")]).status == 0)
        var bytes = try folder.read("full.avif")
        let graph = try HEIFItemGraph(bytes)
        let alphaItem = try #require(graph.references.first { $0.type == "auxl" }?.from)
        let start = try #require(graph.locations[alphaItem]?.extents.first?.offset)
        let alphaData = try #require(try graph.data(of: alphaItem, limit: 512))
        let header = try #require(AV1SequenceHeader(obus: alphaData))
        #expect(header.fullRange)
        // The same file with its alpha image's sequence header saying limited range.
        bytes[start + header.colorRangeBit.byte] &= ~UInt8(1 << header.colorRangeBit.bit)
        let limited = try folder.write(bytes, to: "limited.avif")
        #expect(try HEIFDecodePlan(try HEIFItemGraph(bytes), maxPixels: .max).alphaInLimitedRange)

        let png = folder.file("reference.png")
        #expect(try runTool(["/usr/bin/heif-convert", limited, png]).status == 0)
        let reference = straightPixels(try ImageDecoder.decode(try folder.read("reference.png"), name: png))
        let full = straightPixels(try ImageDecoder.decode(try folder.read("full.avif"), name: "full.avif"))
        let expanded = straightPixels(try ImageDecoder.decode(bytes, name: "limited.avif"))
        var worstKept = 0, worstExpanded = 0, opaque = 0
        for i in stride(from: 3, to: reference.count, by: 4) {
            let coded = Int(reference[i])
            let want = max(0, min(255, Int(((Double(coded) - 16) * 255 / 219).rounded())))
            worstKept = max(worstKept, abs(Int(full[i]) - coded))
            worstExpanded = max(worstExpanded, abs(Int(expanded[i]) - want))
            if expanded[i] == 255 { opaque += 1 }
        }
        #expect(worstKept == 0 && worstExpanded <= 1, "kept \(worstKept), expanded \(worstExpanded)")
        #expect(opaque > 0)
    }
}
