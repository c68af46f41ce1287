import Foundation
import SumiKit
@testable import SumiPage
import Testing

/// The PDF writer's Flate images through the codecs' filtered deflate: the stream inflates and
/// un-filters to the rows given, each row's filter follows the PDF writer's tie order (Up, Sub,
/// Paeth, Average, None), palette indices get None or Up, and the header is 78 9C at any level.
@Suite struct FilteredFlateTests {
    /// The rows of a PNG-predicted stream (`/Predictor 15`) un-filtered, and each row's filter type.
    static func unfiltered(_ stream: [UInt8], rowLength n: Int, bytesPerPixel bpp: Int, rows: Int) throws -> (rows: [UInt8], types: [UInt8]) {
        let predicted = try #require(TextLayerTests.inflate(stream, limit: rows * (n + 1) + 1))
        try #require(predicted.count == rows * (n + 1))
        var out = [UInt8](repeating: 0, count: rows * n), types: [UInt8] = []
        for y in 0..<rows {
            let type = predicted[y * (n + 1)]
            types.append(type)
            for i in 0..<n {
                let v = predicted[y * (n + 1) + 1 + i]
                let a = i >= bpp ? Int(out[y * n + i - bpp]) : 0
                let b = y > 0 ? Int(out[(y - 1) * n + i]) : 0
                let c = y > 0 && i >= bpp ? Int(out[(y - 1) * n + i - bpp]) : 0
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                let paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                let predictor = [0, a, b, (a + b) / 2, paeth][Int(type)]
                out[y * n + i] = v &+ UInt8(predictor & 0xFF)
            }
        }
        return (out, types)
    }

    /// Compresses `rows` (each `n` bytes) as the PDF writer does.
    static func compress(_ rows: [UInt8], rowLength n: Int, bytesPerPixel: Int, level: Int32 = 6, indices: Bool = false) throws -> [UInt8] {
        let flate = try FilteredFlate(rowLength: n, bytesPerPixel: bytesPerPixel, level: level, indices: indices)
        try rows.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: n) { try flate.add(UnsafeBufferPointer(rebasing: all[start..<(start + n)])) }
        }
        return try flate.finish()
    }

    /// Photo-like rows (a gradient with grain, where Z_FILTERED bands are chosen) above flat
    /// screenshot-like ones: 53 rows, so three full bands and a short one.
    @Test func rowsComeBackAsGiven() throws {
        let width = 97, height = 53, n = width * 3
        var rows = [UInt8](repeating: 0, count: height * n)
        var seed: UInt32 = 7
        for y in 0..<height {
            for i in 0..<n {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                rows[y * n + i] = y < 30 ? UInt8(truncatingIfNeeded: i / 3 + y * 2 + Int(seed >> 29)) : (i / 3 / 10 % 2 == 0 ? 240 : 16)
            }
        }
        for level: Int32 in [1, 4, 6, 9] {
            let stream = try Self.compress(rows, rowLength: n, bytesPerPixel: 3, level: level)
            #expect(Array(stream.prefix(2)) == [0x78, 0x9C], "level \(level)")
            let back = try Self.unfiltered(stream, rowLength: n, bytesPerPixel: 3, rows: height)
            #expect(back.rows == rows, "level \(level)")
            #expect(back.types.allSatisfy { $0 <= 4 })
        }
    }

    /// Ties go to Up first: an all-zero first row (every filter costs nothing) is Up, not None;
    /// a ramp under zeros (Sub and Paeth equal, smallest) is Sub.
    @Test func tiesFollowTheWritersOrder() throws {
        let n = 48
        let zeros = [UInt8](repeating: 0, count: n)
        let ramp = (0..<n).map { UInt8($0 * 3) }
        let first = try Self.unfiltered(try Self.compress(zeros + ramp, rowLength: n, bytesPerPixel: 1), rowLength: n, bytesPerPixel: 1, rows: 2)
        #expect(first.types == [2, 1])
        let under = try Self.unfiltered(try Self.compress(ramp + zeros, rowLength: n, bytesPerPixel: 1), rowLength: n, bytesPerPixel: 1, rows: 2)
        #expect(under.types[0] == 1)
        #expect(under.rows == ramp + zeros)
    }

    /// Palette indices: None for a row unlike the one above, Up under an identical one (all zeros),
    /// and level 7 keeps the 78 9C header.
    @Test func paletteIndicesTakeNoneOrUp() throws {
        let n = 40
        let stripes = (0..<n).map { UInt8($0 % 5) }
        let stream = try Self.compress(stripes + stripes + stripes, rowLength: n, bytesPerPixel: 1, level: 7, indices: true)
        #expect(Array(stream.prefix(2)) == [0x78, 0x9C])
        let back = try Self.unfiltered(stream, rowLength: n, bytesPerPixel: 1, rows: 3)
        #expect(back.types == [0, 2, 2])
        #expect(back.rows == stripes + stripes + stripes)
    }

    /// The stencil's rows go in filtered: the first as it is, the others Up.
    @Test func stencilRowsComeBackAsDrawn() throws {
        let width = 21, rows = 20, n = 3
        let stream = try StripEncoder.stencil(width: width, rows: rows, hole: 5..<13)
        let back = try Self.unfiltered(stream, rowLength: n, bytesPerPixel: 1, rows: rows)
        #expect(back.types == [0] + [UInt8](repeating: 2, count: rows - 1))
        let row: [UInt8] = [0b0000_0111, 0b1111_1000, 0]
        #expect(back.rows == Array([[UInt8]](repeating: row, count: rows).joined()))
    }
}
