import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// BMP read by our own reader: bmpsuite's layouts as Pillow reads them, compared with ImageMagick
/// where both read a file the same way.
@Suite struct BMPDecoderTests {
    func rgba(_ image: Image) -> [[UInt8]] {
        let p = straightPixels(image)
        return stride(from: 0, to: p.count, by: 4).map { Array(p[$0..<($0 + 4)]) }
    }

    let palette: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [200, 100, 50]]
    var quads: [UInt8] { TestBMP.quads(palette) }
    func le16(_ v: Int) -> [UInt8] { TestBMP.le16(v) }
    func le32(_ v: Int) -> [UInt8] { TestBMP.le32(v) }

    @Test func aGapBetweenThePaletteAndThePixels() throws {
        // bmpsuite pal8offs.bmp: gdk-pixbuf read the gap as pixels (all black).
        let gap = [UInt8](repeating: 0xAA, count: 100)
        let bytes = TestBMP.file(width: 4, height: 1, bits: 8, colours: 4, extra: quads + gap, pixels: [3, 2, 1, 0])
        #expect(rgba(try decodeBytes(bytes)) == [palette[3], palette[2], palette[1], palette[0]].map { $0 + [255] })
    }

    @Test func aSparseOS2Palette() throws {
        // bmpsuite pal8os2sp.bmp: an OS/2 1.x header (12 bytes, 3-byte entries) with three of 256
        // colours; the pixels follow the short palette.
        let core = le32(12) + le16(2) + le16(2) + le16(1) + le16(8)
        let entries = palette.prefix(3).flatMap { [$0[2], $0[1], $0[0]] }
        let pixels: [UInt8] = [2, 1, 0, 0, 0, 1, 0, 0]   // two rows of two, padded to four bytes
        let start = 14 + 12 + entries.count
        let bytes = Array("BM".utf8) + le32(start + pixels.count) + le32(0) + le32(start) + core + entries + pixels
        #expect(rgba(try decodeBytes(bytes)) == [palette[0], palette[1], palette[2], palette[1]].map { $0 + [255] })
    }

    @Test func aFiveSixFiveBitmapWithAPalette() throws {
        // bmpsuite rgb16-565pal.bmp: bitfield masks, then a palette the pixels do not use, then
        // the pixels where the header's offset says. gdk-pixbuf read the palette as pixels.
        let masks = le32(0xF800) + le32(0x07E0) + le32(0x001F)
        let words = [0xF800, 0x07E0, 0x001F, 0x8410, 0xFFFF, 0x0000]
        let pixels = words[0..<3].flatMap(le16) + [0, 0] + words[3..<6].flatMap(le16) + [0, 0]   // rows padded to 8 bytes
        let bytes = TestBMP.file(width: 3, height: 2, bits: 16, compression: 3, colours: 4, extra: masks + quads, pixels: pixels)
        // Pillow's BGR;16: 5 and 6-bit fields widened as v × 255 / 31 (or 63), truncated.
        func widen(_ w: Int) -> [UInt8] {
            [UInt8((w >> 11) * 255 / 31), UInt8((w >> 5 & 63) * 255 / 63), UInt8((w & 31) * 255 / 31), 255]
        }
        #expect(rgba(try decodeBytes(bytes)) == [3, 4, 5, 0, 1, 2].map { widen(words[$0]) })
    }

    @Test func bitDepthsTopDownAndAlphaMasks() throws {
        // 2-bit palette (Pillow refuses it; bmpsuite pal2.bmp), bottom-up.
        let two = TestBMP.file(width: 4, height: 1, bits: 2, colours: 4, extra: quads, pixels: [0b00_01_10_11, 0, 0, 0])
        #expect(rgba(try decodeBytes(two)) == palette.map { $0 + [255] })
        // 5-5-5 without masks, top-down.
        let five = TestBMP.file(width: 2, height: -2, bits: 16, extra: [], pixels: le16(0x7C00) + le16(0x03E0) + le16(0x001F) + le16(0x7FFF))
        #expect(rgba(try decodeBytes(five)) == [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]])
        // A plain 32-bit BMP's fourth byte is padding; a V5 header's alpha mask is alpha.
        let plain = TestBMP.file(width: 1, height: 1, bits: 32, extra: [], pixels: [30, 20, 10, 0])
        #expect(rgba(try decodeBytes(plain)) == [[10, 20, 30, 255]])
        var v5 = TestBMP.file(width: 1, height: 1, bits: 32, compression: 3, headerSize: 124, extra: [], pixels: [30, 20, 10, 128])
        for (i, mask) in [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000].enumerated() { v5.replaceSubrange((54 + i * 4)..<(58 + i * 4), with: le32(mask)) }
        let translucent = try decodeBytes(v5)
        #expect(translucent.pixels == [5, 10, 15, 128] && !translucent.metadata.knownOpaque)
    }

    @Test func shortOrForeignBMPsAreErrors() throws {
        // 3×4 at 24 bits: rows of 9 bytes padded to 12.
        let bytes = TestBMP.file(width: 3, height: 4, bits: 24, extra: [], pixels: [UInt8](repeating: 9, count: 48))
        let cut = errorMessage { _ = try ImageDecoder.decode(Array(bytes.prefix(bytes.count - 4)), name: "cut.bmp") }
        #expect(cut?.hasPrefix("cut.bmp: truncated BMP data") == true, "\(cut ?? "")")
        // The last row may lack its padding.
        #expect(try decodeBytes(Array(bytes.prefix(bytes.count - 3))).width == 3)
        let huge = TestBMP.file(width: 100_000, height: 100_000, bits: 24, extra: [], pixels: [])
        #expect(errorMessage { _ = try ImageDecoder.decode(huge, name: "huge.bmp") }?.contains("more than max-pixels") == true)
        let jpeg = TestBMP.file(width: 1, height: 1, bits: 24, compression: 4, extra: [], pixels: [0, 0, 0, 0])
        #expect(errorMessage { _ = try ImageDecoder.decode(jpeg, name: "j.bmp") }?.contains("JPEG") == true)
        var odd = bytes
        odd[14] = 77
        #expect(errorMessage { _ = try ImageDecoder.decode(odd, name: "odd.bmp") } == "odd.bmp: corrupt BMP header (unknown info header size 77)")
    }
}
