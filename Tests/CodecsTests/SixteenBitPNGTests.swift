import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// 16-bit PNG samples become 8 bits rounded, round(v × 255 / 65535) — Pillow's I;16 scaled by
/// 255/65535 — not truncated (v >> 8): libpng's png_set_scale_16 is exact.
@Suite struct SixteenBitPNGTests {
    /// A 16-bit PNG of one row (colour type 0 grey or 2 RGB, 6 RGBA) written here.
    func png(width: Int, colourType: UInt8, samples: [Int]) throws -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ body: [UInt8]) throws -> [UInt8] {
            let typed = Array(type.utf8) + body
            return try be32(body.count) + typed + be32(Int(Zlib.crc32(typed)))
        }
        let row: [UInt8] = [0] + samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 255)] }
        return try [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(width) + be32(1) + [16, colourType, 0, 0, 0])
            + chunk("IDAT", Zlib.deflate(row)) + chunk("IEND", [])
    }

    @Test func samplesAreRoundedLikeImageMagickAndPillow() throws {
        // 200 (0.78), 32767 (127.498), 65407 (254.502): where v >> 8 and rounding part.
        let values = [0, 200, 385, 32767, 32768, 65407, 65535, 51_456, 128, 129]
        let grey = try decodeBytes(png(width: values.count, colourType: 0, samples: values))
        let expected = values.map { UInt8(($0 * 255 + 32767) / 65535) }
        #expect(stride(from: 0, to: grey.pixels.count, by: 4).map { grey.pixels[$0] } == expected)
        // RGB and RGBA channel by channel (ImageMagick is no reference here: it floors).
        let rgb = values.flatMap { [$0, 65535 - $0, $0 / 3] }
        let colour = straightPixels(try decodeBytes(png(width: values.count, colourType: 2, samples: rgb)))
        #expect(colour.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) == rgb.map { UInt8(($0 * 255 + 32767) / 65535) })
        let rgba = values.flatMap { [$0, $0, $0, 65535] }
        let opaque = try decodeBytes(png(width: values.count, colourType: 6, samples: rgba))
        #expect(opaque.pixels == rgba.map { UInt8(($0 * 255 + 32767) / 65535) })
    }
}
