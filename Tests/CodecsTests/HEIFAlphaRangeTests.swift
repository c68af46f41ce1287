import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// An AVIF alpha image coded in limited range (16…235) is expanded to full range, as libavif
/// (and so Pillow) does; libheif 1.15 and its heif-convert pass the coded values on.
@Suite struct HEIFAlphaRangeTests {
    @Test func sequenceHeadersOfAPublicFileAreRead() throws {
        // The config OBUs of Pillow's Tests/images/avif/star.avifs (159×159, 8 bits), read by hand:
        // the alpha image is monochrome, color_range 0 (heif-convert gives opaque pixels alpha 235),
        // in the byte after the three flags of its color_config; the colour image is limited range too.
        let alpha = try #require(AV1SequenceHeader(obus: HEIFFileBuilder.hex("0a0a00000003bcf4f3fff344")))
        #expect(!alpha.fullRange && alpha.colorRangeBit == (byte: 11, bit: 4))
        let colour = try #require(AV1SequenceHeader(obus: HEIFFileBuilder.hex("0a0b00000003bcf4f3fff30080")))
        #expect(!colour.fullRange && colour.colorRangeBit == (byte: 11, bit: 4))
        // The same alpha header with color_range 1.
        #expect(AV1SequenceHeader(obus: HEIFFileBuilder.hex("0a0a00000003bcf4f3fff354"))?.fullRange == true)
    }

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
