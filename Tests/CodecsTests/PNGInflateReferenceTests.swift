import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// The common PNG (8-bit RGB or RGBA, not interlaced, no tRNS) decoded whole goes through the
/// one-piece path (libdeflate, `sumi_png_inflate_whole`); a streamed decode goes through libpng's row
/// loop. Files written here with every filter and IDAT chunking decode like ImageMagick reads them,
/// and the files that path must turn down (bad filter, checksums, short or long data, a critical
/// chunk after the image data) decode whole exactly as through libpng: the same pixels or the same
/// message.
@Suite struct PNGInflateReferenceTests {
    /// 8-bit samples (`channels` 3: RGB, 4: RGBA) mixing noise and gradients, so every Paeth
    /// predictor and every alpha case (0, 255, between) occurs.
    static func samples(width: Int, height: Int, channels: Int, seed: UInt32) -> [UInt8] {
        var state = seed &* 2_654_435_761 | 1
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state >> 11)
        }
        var out = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * channels
                let smooth = (x + y) % 3 == 0
                out[i] = smooth ? UInt8(truncatingIfNeeded: x * 4 + y) : next()
                out[i + 1] = smooth ? UInt8(truncatingIfNeeded: y * 3) : next()
                out[i + 2] = x % 7 == 0 ? 255 : next()
                if channels == 4 { out[i + 3] = [0, 255, 128, next()][(x + 2 * y) % 4] }
            }
        }
        return out
    }

    /// Row `y` of `rows` (`stride` bytes each) filtered with PNG filter `type`.
    static func filtered(_ rows: [UInt8], y: Int, stride: Int, bpp: Int, type: UInt8) -> [UInt8] {
        func at(_ row: Int, _ i: Int) -> Int { row < 0 || i < 0 ? 0 : Int(rows[row * stride + i]) }
        return (0..<stride).map { i in
            let x = at(y, i), a = at(y, i - bpp), b = at(y - 1, i), c = at(y - 1, i - bpp)
            let predictor: Int
            switch type {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predictor = 0
            }
            return UInt8(truncatingIfNeeded: x - predictor)
        }
    }

    static func be32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }

    static func chunk(_ type: String, _ body: [UInt8]) throws -> [UInt8] {
        let typed = Array(type.utf8) + body
        return try be32(body.count) + typed + be32(Int(Zlib.crc32(typed)))
    }

    /// The filtered rows of `samples`: row y with `filters[y % filters.count]`.
    static func filteredRows(_ samples: [UInt8], width: Int, height: Int, channels: Int, filters: [UInt8]) -> [UInt8] {
        let stride = width * channels
        return (0..<height).flatMap { y -> [UInt8] in
            let type = filters[y % filters.count]
            return [type] + filtered(samples, y: y, stride: stride, bpp: channels, type: type)
        }
    }

    /// A PNG of `stream` (a zlib stream) cut into IDAT chunks of at most `chunkSize` bytes, with
    /// `after` between the image data and IEND.
    static func png(width: Int, height: Int, channels: Int, stream: [UInt8], chunkSize: Int, after: [UInt8] = []) throws -> [UInt8] {
        let idat = try Swift.stride(from: 0, to: stream.count, by: chunkSize).flatMap { start in
            try chunk("IDAT", Array(stream[start..<min(stream.count, start + chunkSize)]))
        }
        return try [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(width) + be32(height) + [8, channels == 4 ? 6 : 2, 0, 0, 0])
            + chunk("tEXt", Array("Comment\u{0}before the image data".utf8))
            + idat + after + chunk("IEND", [])
    }

    /// Decoded whole, or the message.
    static func whole(_ bytes: [UInt8]) -> Result<[UInt8], StageError> {
        do { return .success(Array(try ImageDecoder.decode(bytes, name: "a.png").pixels)) } catch let error as StageError {
            return .failure(error)
        } catch { return .failure(StageError("\(error)")) }
    }

    /// Decoded through a ring of 5 rows, or the message: libpng's row loop for an image taller than
    /// the ring (here 61x37 and the odd files); a shorter one fits the ring and is decoded in one piece.
    static func streamed(_ path: String) -> Result<[UInt8], StageError> {
        do {
            let run = try StageHarness(DecodeStage.self).runRing(["path": .path(path)], pattern: RingPattern.standard[1])
            guard case .image(let image) = run.value else { return .failure(StageError("no image")) }
            return .success(Array(image.pixels))
        } catch let error as StageError { return .failure(error) } catch { return .failure(StageError("\(error)")) }
    }

    @Test(arguments: [3, 4])
    func everyFilterAndChunkingDecodesLikeImageMagick(channels: Int) throws {
        let folder = try ScratchFolder("png-inflate")
        for (width, height) in [(1, 9), (2, 5), (61, 37)] {
            let samples = Self.samples(width: width, height: height, channels: channels, seed: UInt32(width))
            for filters: [UInt8] in [[0], [1], [2], [3], [4], [4, 3, 2, 1, 0, 2, 4]] {
                let rows = Self.filteredRows(samples, width: width, height: height, channels: channels, filters: filters)
                for chunkSize in [1 << 20, 97, 1] {
                    let bytes = try Self.png(width: width, height: height, channels: channels, stream: Zlib.deflate(rows), chunkSize: chunkSize)
                    let name = "\(width)x\(height)-\(channels)-\(filters.map(String.init).joined())-\(chunkSize).png"
                    let path = try folder.write(bytes, to: name)
                    let expected = Fixtures.premultiplied(try magickRGBA(path), width: width, height: height).pixels
                    let decoded = try ImageDecoder.decode(bytes, name: name)
                    #expect(decoded.pixels == expected, "\(name)")
                    #expect(decoded.metadata.knownOpaque == (channels == 3), "\(name)")
                    #expect(try Self.streamed(path).get() == expected, "\(name)")
                }
            }
        }
    }

    @Test(arguments: [3, 4])
    func filesThePathTurnsDownDecodeAsLibpngDoes(channels: Int) throws {
        let folder = try ScratchFolder("png-inflate-odd")
        let width = 23, height = 19
        let samples = Self.samples(width: width, height: height, channels: channels, seed: 7)
        let rows = Self.filteredRows(samples, width: width, height: height, channels: channels, filters: [0, 1, 2, 3, 4])
        let stream = try Zlib.deflate(rows)
        let stride = width * channels + 1
        func file(_ stream: [UInt8], chunkSize: Int = 200, after: [UInt8] = []) throws -> [UInt8] {
            try Self.png(width: width, height: height, channels: channels, stream: stream, chunkSize: chunkSize, after: after)
        }
        var badFilter = rows
        badFilter[3 * stride] = 5
        var badAdler = stream
        badAdler[badAdler.count - 1] ^= 0x01
        let good = try file(stream)
        // Where the first IDAT chunk begins (its length field), and the second (each holds 200 bytes).
        let firstIDAT = try #require((8..<good.count - 4).first { Array(good[$0..<$0 + 4]) == Array("IDAT".utf8) }) - 4
        let secondIDAT = firstIDAT + 12 + 200
        var badCRC = good
        badCRC[secondIDAT + 8 + 3] ^= 0x10
        let idatEnd = good.count - 12
        let cases: [(String, [UInt8])] = try [
            ("plain", good),
            ("filter 5 on row 3", file(Zlib.deflate(badFilter))),
            ("bad Adler-32", file(badAdler)),
            ("bad CRC in the second IDAT", badCRC),
            ("one row short", file(Zlib.deflate(Array(rows.dropLast(stride))))),
            ("one row more", file(Zlib.deflate(rows + rows.suffix(stride)))),
            ("bytes after the zlib stream", file(stream + [1, 2, 3, 4])),
            ("cut inside the image data", Array(good.prefix(good.count / 2))),
            ("cut after the image data", Array(good.prefix(idatEnd))),
            ("a text chunk after the image data", file(stream, after: Self.chunk("tEXt", Array("Note\u{0}after".utf8)))),
            ("a critical chunk after the image data", file(stream, after: Self.chunk("ABCD", [1, 2]))),
            ("image data split by a text chunk", Array(good.prefix(secondIDAT)) + Self.chunk("tEXt", Array("a\u{0}b".utf8))
                + Array(good[secondIDAT...])),
            ("one IDAT chunk", file(stream, chunkSize: 1 << 20)),
            ("empty IDAT chunks between", Array(good.prefix(secondIDAT)) + Self.chunk("IDAT", []) + Self.chunk("IDAT", [])
                + Array(good[secondIDAT...])),
        ]
        var succeeded = 0
        for (name, bytes) in cases {
            let path = try folder.write(bytes, to: "\(name).png")
            let wholeResult = Self.whole(bytes), streamedResult = Self.streamed(path)
            switch (wholeResult, streamedResult) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(name)")
                succeeded += 1
            case (.failure(let a), .failure(let b)):
                // The messages name different files (bytes vs the path): compared after the name.
                #expect(a.message.drop { $0 != ":" } == b.message.drop { $0 != ":" }, "\(name)")
            default:
                Issue.record("\(name): whole \(wholeResult), streamed \(streamedResult)")
            }
        }
        // The well-formed variants decode; libpng refuses the broken ones.
        #expect(succeeded >= 5)
        if case .success(let pixels) = Self.whole(good) {
            let expected = Fixtures.premultiplied(try magickRGBA(try folder.write(good, to: "good.png")), width: width, height: height).pixels
            #expect(pixels == expected)
        } else {
            Issue.record("the plain file did not decode")
        }
    }
}
