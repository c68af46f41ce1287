import Foundation
import SumiCodecs
import SumiKit
import Testing

/// ICO, TGA and QOI on hand-made files: layout, row order, runs across rows, and damage refused
/// with a message naming the file before any row.
@Suite struct OwnReaderTests {
    static func tga(type: UInt8, width: Int, height: Int, depth: UInt8, descriptor: UInt8, map: (first: Int, entries: [UInt8], depth: UInt8)? = nil,
                    data: [UInt8]) -> [UInt8] {
        var header: [UInt8] = [0, map == nil ? 0 : 1, type]
        let length = map.map { $0.entries.count / Int(($0.depth + 7) / 8) } ?? 0
        header += [UInt8(map?.first ?? 0 & 0xFF), UInt8((map?.first ?? 0) >> 8), UInt8(length & 0xFF), UInt8(length >> 8), map?.depth ?? 0]
        header += [0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), depth, descriptor]
        return header + (map?.entries ?? []) + data
    }

    @Test func tgaRowsComeTopFirstFromEitherOrigin() throws {
        // 2x2, 24-bit BGR: stored bottom row first (red, green), then top (blue, white).
        let pixels: [UInt8] = [0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255]
        let bottomUp = try ImageDecoder.decode(Self.tga(type: 2, width: 2, height: 2, depth: 24, descriptor: 0, data: pixels), name: "a.tga")
        #expect(bottomUp.pixel(x: 0, y: 0) == (0, 0, 255, 255) && bottomUp.pixel(x: 1, y: 1) == (0, 255, 0, 255))
        #expect(bottomUp.metadata.sourceFormat == "tga" && bottomUp.metadata.knownOpaque)
        let topDownRightToLeft = try ImageDecoder.decode(Self.tga(type: 2, width: 2, height: 2, depth: 24, descriptor: 0x30, data: pixels), name: "b.tga")
        #expect(topDownRightToLeft.pixel(x: 1, y: 0) == (255, 0, 0, 255) && topDownRightToLeft.pixel(x: 0, y: 1) == (255, 255, 255, 255))
    }

    @Test func tgaRunsMayCrossRowsAndTheColourMapStartsAtItsFirstIndex() throws {
        // 3x2 colour-mapped RLE: one run of 4 pixels of index 5 (crossing into row 2), 2 raw (6, 5).
        // The map's first index is 5: entries 5 (red) and 6 (green) as 16-bit 5-5-5.
        let map: [UInt8] = [0x00, 0x7C, 0xE0, 0x03]
        let data: [UInt8] = [0x83, 5, 0x01, 6, 5]
        let image = try ImageDecoder.decode(Self.tga(type: 9, width: 3, height: 2, depth: 8, descriptor: 0x20, map: (5, map, 16), data: data), name: "c.tga")
        #expect(image.pixel(x: 0, y: 0) == (255, 0, 0, 255) && image.pixel(x: 0, y: 1) == (255, 0, 0, 255))
        #expect(image.pixel(x: 1, y: 1) == (0, 255, 0, 255) && image.pixel(x: 2, y: 1) == (255, 0, 0, 255))
        let cut = Self.tga(type: 9, width: 3, height: 2, depth: 8, descriptor: 0x20, map: (5, map, 16), data: Array(data.prefix(3)))
        #expect(errorMessage { _ = try ImageDecoder.decode(cut, name: "cut.tga") }?.contains("cut.tga: truncated TGA data") == true)
        let short = Self.tga(type: 2, width: 40, height: 40, depth: 24, descriptor: 0, data: [1, 2, 3])
        #expect(errorMessage { _ = try ImageDecoder.decode(short, name: "short.tga") }?.contains("short.tga: truncated TGA data") == true)
    }

    @Test func tgaAlphaIsReadOnlyWhenTheFileDeclaresIt() throws {
        let pixel: [UInt8] = [10, 20, 30, 0]
        let none = try ImageDecoder.decode(Self.tga(type: 2, width: 1, height: 1, depth: 32, descriptor: 0x20, data: pixel), name: "n.tga")
        #expect(none.pixel(x: 0, y: 0) == (30, 20, 10, 255))
        let eight = try ImageDecoder.decode(Self.tga(type: 2, width: 1, height: 1, depth: 32, descriptor: 0x28, data: pixel), name: "e.tga")
        #expect(eight.pixel(x: 0, y: 0).a == 0)
    }

    static func qoi(width: Int, height: Int, channels: UInt8, ops: [UInt8], end: Bool = true) -> [UInt8] {
        func be(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Array("qoif".utf8) + be(width) + be(height) + [channels, 0] + ops + (end ? [0, 0, 0, 0, 0, 0, 0, 1] : [])
    }

    @Test func qoiOperationsDecode() throws {
        // RGBA (100, 50, 25, 255); a run of 2; DIFF +1,-1,0; INDEX of the first colour; LUMA dg +4, dr-dg -1, db-dg +2.
        let first: (UInt8, UInt8, UInt8, UInt8) = (100, 50, 25, 255)
        let hash = (100 * 3 + 50 * 5 + 25 * 7 + 255 * 11) % 64
        let ops: [UInt8] = [0xFF, 100, 50, 25, 255, 0xC1, 0x40 | 3 << 4 | 1 << 2 | 2, UInt8(hash), 0x80 | 36, 7 << 4 | 10]
        let image = try ImageDecoder.decode(Self.qoi(width: 3, height: 2, channels: 4, ops: ops), name: "a.qoi")
        #expect(image.pixel(x: 0, y: 0) == first && image.pixel(x: 2, y: 0) == first)
        #expect(image.pixel(x: 0, y: 1) == (101, 49, 25, 255))
        #expect(image.pixel(x: 1, y: 1) == first)
        #expect(image.pixel(x: 2, y: 1) == (103, 54, 31, 255))
        #expect(image.metadata.sourceFormat == "qoi")
    }

    @Test func damagedQOIAndICOAreRefusedNamingTheFile() throws {
        let short = Self.qoi(width: 1000, height: 1000, channels: 3, ops: [0xFE, 1, 2, 3])
        #expect(errorMessage { _ = try ImageDecoder.decode(short, name: "s.qoi") }?.contains("s.qoi: truncated QOI data") == true)
        let ended = Self.qoi(width: 4, height: 1, channels: 3, ops: [0xFE, 1, 2, 3])
        #expect(errorMessage { _ = try ImageDecoder.decode(ended, name: "e.qoi") }?.contains("e.qoi: truncated QOI data") == true)
        let huge = Self.qoi(width: 100_000, height: 100_000, channels: 3, ops: [])
        #expect(errorMessage { _ = try ImageDecoder.decode(huge, name: "h.qoi") }?.contains("more than max-pixels") == true)
        // An icon whose one entry points past the end of the file.
        var ico: [UInt8] = [0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]
        ico += [0x00, 0x10, 0, 0, 22, 0, 0, 0] + [UInt8](repeating: 0, count: 40)
        #expect(errorMessage { _ = try ImageDecoder.decode(ico, name: "a.ico") }?.contains("a.ico: ICO entry 1 lies outside the file") == true)
    }

    @Test func theLargestIconEntryIsShownWithItsMask() throws {
        // Two BMP entries: 1x1 and 2x2 (24-bit); the 2x2's mask makes its top-left pixel transparent.
        func entry(_ size: Int, _ bgr: [UInt8]) -> [UInt8] {
            var header = [UInt8](repeating: 0, count: 40)
            header[0] = 40; header[4] = UInt8(size); header[8] = UInt8(size * 2); header[12] = 1; header[14] = 24
            let rowBytes = (size * 24 + 31) / 32 * 4
            var rows: [UInt8] = []
            for _ in 0..<size { rows += Array(bgr.prefix(size * 3)) + [UInt8](repeating: 0, count: rowBytes - size * 3) }
            // Mask rows bottom-up: the bottom row clear, the top row's first pixel set.
            let mask: [UInt8] = size == 2 ? [0, 0, 0, 0, 0x80, 0, 0, 0] : [0, 0, 0, 0]
            return header + rows + mask
        }
        let small = entry(1, [0, 0, 255]), large = entry(2, [255, 0, 0, 255, 0, 0])
        var ico: [UInt8] = [0, 0, 1, 0, 2, 0]
        func dir(_ size: Int, _ length: Int, _ offset: Int) -> [UInt8] {
            [UInt8(size), UInt8(size), 0, 0, 1, 0, 24, 0, UInt8(length & 0xFF), UInt8(length >> 8), 0, 0, UInt8(offset & 0xFF), UInt8(offset >> 8), 0, 0]
        }
        ico += dir(1, small.count, 38) + dir(2, large.count, 38 + small.count) + small + large
        let image = try ImageDecoder.decode(ico, name: "two.ico")
        #expect(image.width == 2 && image.height == 2)
        #expect(image.pixel(x: 0, y: 0) == (0, 0, 0, 0) && image.pixel(x: 1, y: 0) == (0, 0, 255, 255))
        #expect(image.pixel(x: 0, y: 1) == (0, 0, 255, 255))
    }
}

/// An AVIF whose colour item is rotated but whose alpha item is not: libheif would drop the alpha,
/// so the file is refused with a message saying so, never decoded opaque.
@Suite struct HEIFAlphaTransformTests {
    @Test func anAlphaNotTransformedAsItsColourIsRefused() throws {
        let path = OwnReaderReferenceTests.corpus + "/abc_color_irot_alpha_NOirot.avif"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "abc.avif") }
        #expect(message?.hasPrefix("abc.avif: AVIF colour item") == true && message?.contains("irot") == true
                && message?.contains("alpha item") == true && message?.contains("refused rather than decoded opaque") == true,
                "\(message ?? "decoded")")
    }
}
