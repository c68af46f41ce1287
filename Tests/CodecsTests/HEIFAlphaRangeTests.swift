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

}
