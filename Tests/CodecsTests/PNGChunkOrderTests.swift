import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// A PNG whose `tRNS` comes before `PLTE` (libavif's `circle-trns-before-plte.png`: an RGB image
/// with a suggested palette) decodes as libpng reads it: the out-of-place `tRNS` ignored, with a
/// warning that says so; 0.3.0 refused it as an "unsupported PNG pixel layout".
@Suite struct PNGChunkOrderTests {
    /// A 3x1 RGB PNG: `tRNS` (making the first colour transparent) before or after `PLTE`.
    func png(transparencyFirst: Bool) throws -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ body: [UInt8]) throws -> [UInt8] {
            let typed = Array(type.utf8) + body
            return try be32(body.count) + typed + be32(Int(Zlib.crc32(typed)))
        }
        let transparency = try chunk("tRNS", [0, 255, 0, 0, 0, 0])     // red (255, 0, 0) is transparent
        let palette = try chunk("PLTE", [255, 0, 0, 0, 0, 255])         // a suggested palette: red, blue
        let row: [UInt8] = [0, 255, 0, 0, 0, 255, 0, 0, 0, 255]
        return try [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(3) + be32(1) + [8, 2, 0, 0, 0])
            + (transparencyFirst ? transparency + palette : palette + transparency)
            + chunk("IDAT", Zlib.deflate(row)) + chunk("IEND", [])
    }

    @Test func aTransparencyChunkBeforeThePaletteIsIgnoredWithAWarning() throws {
        var warnings: [String] = []
        let image = try ImageDecoder.decode(png(transparencyFirst: true), name: "order.png", warn: { warnings.append($0) })
        #expect(image.width == 3 && image.height == 1)
        #expect(image.pixels == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255], "\(image.pixels)")
        #expect(warnings.count == 1 && warnings[0].contains("order.png") && warnings[0].contains("tRNS"), "\(warnings)")
        // In its place, the chunk makes red transparent, and nothing is warned of.
        var none: [String] = []
        let placed = try ImageDecoder.decode(png(transparencyFirst: false), name: "placed.png", warn: { none.append($0) })
        #expect(placed.pixels == [0, 0, 0, 0, 0, 255, 0, 255, 0, 0, 255, 255] && none.isEmpty, "\(placed.pixels) \(none)")
        // The streamed decode gives the same pixels and the same warning.
        let stream = RowStream(capacity: Int.max)
        var streamed: [String] = []
        #expect(try ImageDecoder.decode(png(transparencyFirst: true), name: "order.png", limits: .standard, into: stream,
                                        warn: { streamed.append($0) }))
        stream.finish()
        #expect(try stream.image().pixels == image.pixels && streamed == warnings)
    }
}
