import Foundation
import SumiCodecs
import SumiKit
import Testing

/// Sumi decodes RLE8 and RLE4 BMPs itself (one buffer instead of gdk-pixbuf's plus a copy): the
/// pixels must be what ImageMagick reads, and what the codes skip must be transparent.
@Suite struct RunLengthBMPTests {
    func bmp(width: Int, height: Int, bits: Int, compression: Int, palette: [[UInt8]], data: [UInt8]) -> [UInt8] {
        TestBMP.file(width: width, height: height, bits: bits, compression: compression, colours: palette.count,
                     extra: TestBMP.quads(palette), pixels: data)
    }

    @Test func skippedPixelsAreTransparentAndRLE4NibblesAlternate() throws {
        let red: [UInt8] = [255, 0, 0], green: [UInt8] = [0, 255, 0], blue: [UInt8] = [0, 0, 255]
        // 6×3, bottom row first. Row 0: a run of 5 alternating red/green, then end of line.
        // Then a delta of (2, 1): row 1 is skipped, row 2 starts at x 2; absolute 3 pixels blue, red, blue.
        let data: [UInt8] = [5, 0x01, 0, 0,  0, 2, 2, 1,  0, 3, 0x20, 0x20,  0, 1]
        let image = try decodeBytes(bmp(width: 6, height: 3, bits: 4, compression: 2, palette: [red, green, blue], data: data))
        func at(_ x: Int, _ y: Int) -> [UInt8] { let c = image.color(x: x, y: y); return [c.red, c.green, c.blue, c.alpha] }
        // Bottom row (y 2): red, green, red, green, red, then one skipped pixel.
        #expect((0..<6).map { at($0, 2) } == [red + [255], green + [255], red + [255], green + [255], red + [255], [0, 0, 0, 0]])
        #expect((0..<6).allSatisfy { at($0, 1) == [0, 0, 0, 0] })
        #expect((0..<6).map { at($0, 0) } == [[0, 0, 0, 0], [0, 0, 0, 0], blue + [255], red + [255], blue + [255], [0, 0, 0, 0]])
        // RLE8 codes past the row's end are clipped, not written into the next row.
        let wide: [UInt8] = [200, 1, 0, 0, 3, 0, 0, 1]
        let clipped = try decodeBytes(bmp(width: 4, height: 2, bits: 8, compression: 1, palette: [red, green], data: wide))
        #expect((0..<4).allSatisfy { clipped.color(x: $0, y: 1).green == 255 })
        #expect((0..<3).allSatisfy { clipped.color(x: $0, y: 0).red == 255 && clipped.color(x: $0, y: 0).alpha == 255 })
        #expect(clipped.color(x: 3, y: 0).alpha == 0)
    }
}
