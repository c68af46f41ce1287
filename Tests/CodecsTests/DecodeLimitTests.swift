import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// `decode` holds an image to the lower of its `max-pixels` and the run's pixel limit, and refuses
/// rows wider than the run allows at the header (issue 35 item 2): a 45,000,000×1 PNG — 131 KB on
/// disk, one row of 180 MB of RGBA — is refused before libpng allocates its row buffers (0.3.0
/// took 149 MB before the stream refused it), with a message naming the size.
@Suite struct DecodeLimitTests {
    /// The error `body` throws (nil when it does not throw).
    func refusal(_ body: () throws -> Void) -> StageError? {
        do { try body() } catch let error as StageError { return error } catch { return StageError("\(error)") }
        return nil
    }

    @Test func aRowWiderThanTheRunAllowsIsRefusedAtTheHeader() throws {
        let folder = try ScratchFolder("decode-limits")
        let wide = try PNGInflateReferenceTests.png(width: 45_000_000, height: 1, channels: 3, stream: Zlib.deflate([0, 0, 0, 0]),
                                       chunkSize: 1 << 16)
        let path = try folder.write(wide, to: "wide.png")
        let harness = StageHarness(DecodeStage.self)
        let expected = "\(path): image is 45000000x1, rows of 45000000 pixels, wider than this run allows (262144)"
        // Streamed (one path), whole (a list of one file taken as an image), and the decoder alone.
        let streamed = refusal { _ = try harness.run(["path": .path(path)]) }
        #expect(streamed?.message == expected && streamed?.isLimit == true, "\(streamed?.message ?? "")")
        let listed = refusal {
            let value = try harness.run(["path": .list([.path(path), .path(path)])])
            guard case .images(let list) = value else { return }
            _ = try list[0].image()
        }
        #expect(listed?.message == expected, "\(listed?.message ?? "")")
        let alone = refusal { _ = try ImageDecoder.decode(wide, name: "wide.png") }
        #expect(alone?.message == "wide.png: image is 45000000x1, rows of 45000000 pixels, wider than this run allows (262144)")
    }

    /// Every streamed decoder checks the width at its header, before any row: GIF, TIFF, BMP and
    /// the run-length BMP (whose codes are walked first) alike.
    @Test func everyStreamedFormatRefusesAWideRowFirst() throws {
        let narrow = PixelLimits(maxPixels: PixelLimits.standard.maxPixels, maxWidth: 16)
        for fixture in StreamedDecodeTests.fixtures where fixture.streams {
            // As tall as the image: a decoder that went on would not wait for a consumer.
            let stream = RowStream(capacity: Int.max)
            let error = refusal { _ = try ImageDecoder.decode(fixture.bytes, name: fixture.name, limits: narrow, into: stream) }
            #expect(error?.message.hasPrefix("\(fixture.name): image is \(fixture.width)x\(fixture.height), rows of \(fixture.width) pixels") == true,
                    "\(fixture): \(error?.message ?? "decoded")")
            #expect(stream.shape == nil, "\(fixture)")
        }
    }

    /// The stage's `max-pixels` and the run's limit: the lower one holds, at the header.
    @Test func theLowerOfMaxPixelsAndTheRunsLimitHolds() throws {
        let folder = try ScratchFolder("decode-limits")
        let path = try folder.write(try PNGEncoder.encode(Fixtures.asymmetric(width: 40, height: 40)), to: "a.png")
        var harness = StageHarness(DecodeStage.self)
        harness.options.limits = PixelLimits(maxPixels: 1000)
        let byRun = refusal { _ = try harness.run(["path": .path(path)]) }
        #expect(byRun?.message == "\(path): image is 40x40 (1600 pixels), more than max-pixels 1000" && byRun?.isLimit == true,
                "\(byRun?.message ?? "")")
        let byStage = refusal { _ = try harness.run(["path": .path(path), "max-pixels": .integer(500)]) }
        #expect(byStage?.message == "\(path): image is 40x40 (1600 pixels), more than max-pixels 500", "\(byStage?.message ?? "")")
        harness.options.limits = PixelLimits(maxPixels: 1600, maxWidth: 40)
        #expect(try harness.runImage(["path": .path(path)]).width == 40)
    }
}
