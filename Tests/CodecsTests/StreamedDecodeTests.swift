import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// GIF, TIFF and BMP decode into a stream row by row (issue 35 item 7: a small file of 49 MP must
/// not hold the whole image): through every ring pattern, each layout gives the pixels of the whole
/// decode and of a reference the test builds beside the file, and the streamed path is the one
/// taken. A TIFF to turn is decoded whole and passed through the ring, with the same pixels. What
/// the streams save is measured by benchmarks (peak RSS of a 7000x7000 thumbnail), not here.
@Suite struct StreamedDecodeTests {
    /// A file and the straight RGBA it must decode to (rows top first); `streams`: whether the
    /// decoder writes its rows into the stream itself rather than decoding whole first.
    struct Fixture: CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let width: Int
        let height: Int
        let straight: [UInt8]
        var streams = true

        var description: String { name }
    }

    static let colours: [[UInt8]] = (0..<256).map { (i: Int) -> [UInt8] in
        [UInt8(truncatingIfNeeded: i * 37), UInt8(truncatingIfNeeded: i * 91), UInt8(255 - i)]
    }

    /// Straight RGBA of `width`×`height` from each pixel's colour (nil: transparent).
    static func paint(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                guard let colour = pixel(x, y) else { out += [0, 0, 0, 0]; continue }
                out += colour.count == 4 ? colour : colour + [255]
            }
        }
        return out
    }

    // MARK: The fixtures

    static func gifs() -> [Fixture] {
        let table = Array(colours.prefix(40))
        func index(_ x: Int, _ y: Int) -> Int { (x * 7 + y * 3) % 40 }
        // A frame inside a larger canvas with a transparent index: the canvas around it is clear.
        let frameIndices = (0..<25).flatMap { (y: Int) -> [UInt8] in (0..<30).map { UInt8(index($0, y)) } }
        var framed = TestGIF(screenWidth: 37, screenHeight: 29, globalTable: table, left: 3, top: 2, width: 30, height: 25,
                             indices: frameIndices)
        framed.transparentIndex = 5
        let framedPixels = paint(37, 29) { x, y in
            let (fx, fy) = (x - 3, y - 2)
            guard (0..<30).contains(fx), (0..<25).contains(fy), index(fx, fy) != 5 else { return nil }
            return table[index(fx, fy)]
        }
        // Opaque: the canvas around the frame is colour 0.
        var opaque = framed
        opaque.transparentIndex = nil
        let opaquePixels = paint(37, 29) { x, y in
            let (fx, fy) = (x - 3, y - 2)
            return (0..<30).contains(fx) && (0..<25).contains(fy) ? table[index(fx, fy)] : table[0]
        }
        // Interlaced: stored in pass order, read whole as indices, then streamed.
        let order: [Int] = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: 41, by: step)) }
        let passIndices = order.flatMap { (y: Int) -> [UInt8] in (0..<23).map { UInt8(index($0, y)) } }
        var interlaced = TestGIF(screenWidth: 23, screenHeight: 41, globalTable: table, width: 23, height: 41,
                                 indices: passIndices)
        interlaced.interlaced = true
        return [
            Fixture(name: "framed.gif", bytes: framed.bytes(), width: 37, height: 29, straight: framedPixels),
            Fixture(name: "opaque.gif", bytes: opaque.bytes(), width: 37, height: 29, straight: opaquePixels),
            Fixture(name: "interlaced.gif", bytes: interlaced.bytes(), width: 23, height: 41,
                    straight: paint(23, 41) { table[index($0, $1)] }),
        ]
    }

    static func plainBMPs() -> [Fixture] {
        let palette = Array(colours.prefix(256))
        // 8-bit palette, bottom-up, rows padded to 4 bytes.
        let (w8, h8) = (53, 31)
        let pad8 = (4 - w8 % 4) % 4
        let rows8 = (0..<h8).reversed().flatMap { (y: Int) -> [UInt8] in
            (0..<w8).map { UInt8(truncatingIfNeeded: $0 * 5 + y * 11) } + [UInt8](repeating: 0, count: pad8)
        }
        let bottomUp = TestBMP.file(width: w8, height: h8, bits: 8, colours: 256, extra: TestBMP.quads(palette), pixels: rows8)
        // 24-bit, top-down.
        let (w24, h24) = (41, 19)
        func rgb(_ x: Int, _ y: Int) -> [UInt8] {
            [UInt8(truncatingIfNeeded: x * 6), UInt8(truncatingIfNeeded: y * 13), UInt8(truncatingIfNeeded: (x + y) * 3)]
        }
        let pad24 = (4 - w24 * 3 % 4) % 4
        let rows24 = (0..<h24).flatMap { (y: Int) -> [UInt8] in
            (0..<w24).flatMap { (x: Int) -> [UInt8] in rgb(x, y).reversed() } + [UInt8](repeating: 0, count: pad24)
        }
        let topDown = TestBMP.file(width: w24, height: -h24, bits: 24, extra: [], pixels: rows24)
        // 32-bit with an alpha mask (a V5 header), bottom-up: premultiplied row by row.
        let (wa, ha) = (17, 13)
        func rgba(_ x: Int, _ y: Int) -> [UInt8] { rgb(x, y) + [UInt8(truncatingIfNeeded: x * 15 + y * 20)] }
        let stored = (0..<ha).reversed().flatMap { (y: Int) -> [UInt8] in
            (0..<wa).flatMap { (x: Int) -> [UInt8] in let p = rgba(x, y); return [p[2], p[1], p[0], p[3]] }
        }
        var alpha = TestBMP.file(width: wa, height: ha, bits: 32, compression: 3, headerSize: 124, extra: [], pixels: stored)
        for (i, mask) in [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000].enumerated() {
            alpha.replaceSubrange((54 + i * 4)..<(58 + i * 4), with: TestBMP.le32(mask))
        }
        return [
            Fixture(name: "bottom-up.bmp", bytes: bottomUp, width: w8, height: h8,
                    straight: paint(w8, h8) { x, y in palette[(x * 5 + y * 11) % 256] }),
            Fixture(name: "top-down.bmp", bytes: topDown, width: w24, height: h24, straight: paint(w24, h24, rgb)),
            Fixture(name: "alpha.bmp", bytes: alpha, width: wa, height: ha, straight: paint(wa, ha, rgba)),
        ]
    }

    /// RLE8 or RLE4 codes for `width`×`height` — runs, literal runs, rows ended early, deltas (some
    /// across several groups of rows of `BMPRunLengthDecoder`) — and the palette index each pixel
    /// gets (nil: skipped, transparent), rows top first.
    static func runLengthCodes(width: Int, height: Int, nibbles: Bool, seed: UInt64) -> (codes: [UInt8], indices: [Int?]) {
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int(random >> 33) % max(1, bound)
        }
        var codes: [UInt8] = [], indices = [Int?](repeating: nil, count: width * height)
        var x = 0, row = 0
        func put(_ index: Int) {
            indices[(height - 1 - row) * width + x] = index
            x += 1
        }
        let colours = nibbles ? 16 : 256
        while row < height {
            let left = width - x
            switch next(10) {
            case 0 where row + 1 < height:
                // A delta: right, and down past several rows now and then.
                let (dx, dy) = (next(min(left, 255) + 1), next(10) == 0 ? next(min(height - 1 - row, 60) + 1) : next(2))
                codes += [0, 2, UInt8(dx), UInt8(dy)]
                x += dx
                row += dy
            case 1:
                // The row ends early.
                codes += [0, 0]
                (x, row) = (0, row + 1)
            case 2...4 where left >= 3:
                // Literal indices, padded to 16 bits.
                let count = 3 + next(min(left, 255) - 2)
                let literal = (0..<count).map { _ in next(colours) }
                codes += [0, UInt8(count)]
                var packed = nibbles ? stride(from: 0, to: count, by: 2).map { i in
                    UInt8(literal[i] << 4 | (i + 1 < count ? literal[i + 1] : 0)) } : literal.map(UInt8.init)
                if packed.count % 2 == 1 { packed.append(0) }
                codes += packed
                literal.forEach(put)
            default:
                guard left > 0 else {
                    codes += [0, 0]
                    (x, row) = (0, row + 1)
                    continue
                }
                // A run of one index (RLE4: two alternating).
                let count = 1 + next(min(left, 255))
                let (first, second) = (next(colours), next(colours))
                codes += [UInt8(count), UInt8(nibbles ? first << 4 | second : first)]
                for i in 0..<count { put(nibbles && i % 2 == 1 ? second : first) }
            }
        }
        return (codes + [0, 1], indices)
    }

    static func runLengthBMPs() -> [Fixture] {
        // 2500 wide: groups of 26 rows (64 Ki pixels); 70 rows are three groups and a part.
        [(2500, 70, false, "rle8.bmp"), (37, 23, false, "small-rle8.bmp"), (3001, 45, true, "rle4.bmp")].map { width, height, nibbles, name in
            let palette = Array(colours.prefix(nibbles ? 16 : 256))
            let (codes, indices) = runLengthCodes(width: width, height: height, nibbles: nibbles, seed: UInt64(width))
            let bytes = TestBMP.file(width: width, height: height, bits: nibbles ? 4 : 8, compression: nibbles ? 2 : 1,
                                     colours: palette.count, extra: TestBMP.quads(palette), pixels: codes)
            return Fixture(name: name, bytes: bytes, width: width, height: height,
                           straight: paint(width, height) { x, y in indices[y * width + x].map { palette[$0] } })
        }
    }

    static func tiffs() -> [Fixture] {
        func grey(_ x: Int, _ y: Int) -> UInt8 { UInt8(truncatingIfNeeded: x * 3 + y * 7) }
        func rgb(_ x: Int, _ y: Int) -> [UInt8] {
            [UInt8(truncatingIfNeeded: x * 9), UInt8(truncatingIfNeeded: y * 5), UInt8(truncatingIfNeeded: (x ^ y) * 4)]
        }
        // One strip of grey: read a few rows at a time through libtiff's scanline interface.
        let (gw, gh) = (61, 47)
        let greyRows = (0..<gh).flatMap { (y: Int) -> [UInt8] in (0..<gw).map { grey($0, y) } }
        let greyStrip = TestTIFF(width: gw, height: gh, bits: [8], photometric: 1, data: greyRows)
        // RGB in strips of 5 rows (they never line up with the ring's bands).
        let (cw, ch) = (43, 37)
        let rgbRows = (0..<ch).flatMap { (y: Int) -> [UInt8] in (0..<cw).flatMap { rgb($0, y) } }
        var strips = TestTIFF(width: cw, height: ch, bits: [8, 8, 8], photometric: 2, data: rgbRows)
        strips.rowsPerStrip = 5
        // 16-bit RGBA, unassociated alpha: premultiplied on the way.
        let (aw, ah) = (29, 23)
        func rgba(_ x: Int, _ y: Int) -> [UInt8] { rgb(x, y) + [UInt8(truncatingIfNeeded: x * 8 + y * 3)] }
        let samples = (0..<ah).flatMap { (y: Int) -> [Int] in
            (0..<aw).flatMap { (x: Int) -> [Int] in rgba(x, y).map { Int($0) * 257 } }
        }
        var alpha = TestTIFF(width: aw, height: ah, bits: [16, 16, 16, 16], photometric: 2, data: TestTIFF.words(samples))
        alpha.extraSamples = [2]
        // Tiles of 16x16, read a row of tiles at a time, edge tiles padded.
        var tiled = strips
        tiled.rowsPerStrip = nil
        tiled.tileSize = (16, 16)
        // A tile as wide as the image: read straight into the band, no tile buffer.
        var wideTiles = tiled
        wideTiles.tileSize = (48, 16)
        // Separate planes: one handle a plane reads its strips a few rows at a time; in one strip
        // each, and with alpha in strips of 4 rows.
        var planes = strips
        planes.rowsPerStrip = nil
        planes.separatePlanes = true
        var alphaPlanes = alpha
        alphaPlanes.separatePlanes = true
        alphaPlanes.rowsPerStrip = 4
        // Grey with an unspecified extra sample in a plane of its own: only the grey plane is read,
        // and its rows hold one sample a pixel (they were indexed as interleaved, reading past each
        // row, and past the band on the last: pixels from other memory, different on each run).
        let greyAndExtra = (0..<gh).flatMap { (y: Int) -> [UInt8] in (0..<gw).flatMap { [grey($0, y), 0xFF] } }
        var extraPlane = TestTIFF(width: gw, height: gh, bits: [8, 8], photometric: 1, data: greyAndExtra)
        extraPlane.extraSamples = [0]
        extraPlane.separatePlanes = true
        // Turned (Orientation 6): decoded whole and passed through the ring.
        var turned = greyStrip
        turned.orientation = 6
        return [
            Fixture(name: "grey-strip.tif", bytes: greyStrip.bytes(), width: gw, height: gh,
                    straight: paint(gw, gh) { x, y in [grey(x, y), grey(x, y), grey(x, y)] }),
            Fixture(name: "rgb-strips.tif", bytes: strips.bytes(), width: cw, height: ch, straight: paint(cw, ch, rgb)),
            Fixture(name: "rgba-16.tif", bytes: alpha.bytes(), width: aw, height: ah, straight: paint(aw, ah, rgba)),
            Fixture(name: "tiled.tif", bytes: tiled.bytes(), width: cw, height: ch, straight: paint(cw, ch, rgb)),
            Fixture(name: "wide-tiles.tif", bytes: wideTiles.bytes(), width: cw, height: ch, straight: paint(cw, ch, rgb)),
            Fixture(name: "planes.tif", bytes: planes.bytes(), width: cw, height: ch, straight: paint(cw, ch, rgb)),
            Fixture(name: "rgba-planes.tif", bytes: alphaPlanes.bytes(), width: aw, height: ah, straight: paint(aw, ah, rgba)),
            Fixture(name: "grey-extra-plane.tif", bytes: extraPlane.bytes(), width: gw, height: gh,
                    straight: paint(gw, gh) { x, y in [grey(x, y), grey(x, y), grey(x, y)] }),
            Fixture(name: "turned.tif", bytes: turned.bytes(), width: gh, height: gw,
                    straight: paint(gh, gw) { x, y in let g = grey(y, gh - 1 - x); return [g, g, g] }, streams: false),
        ]
    }

    static let fixtures = gifs() + plainBMPs() + runLengthBMPs() + tiffs()

    // MARK: The tests

    /// Every fixture through every ring pattern: the pixels of the whole decode, and the reference.
    @Test(arguments: RingPattern.standard)
    func streamedRowsAreTheWholeDecode(pattern: RingPattern) throws {
        let folder = try ScratchFolder("streamed-decode")
        let harness = StageHarness(DecodeStage.self)
        for fixture in Self.fixtures {
            let path = try folder.write(fixture.bytes, to: fixture.name)
            let whole = try harness.runImage(["path": .path(path)])
            let run = try harness.runRing(["path": .path(path)], pattern: pattern)
            guard case .image(let ringed) = run.value else { throw StageError("decode gave no image") }
            #expect(ringed.width == fixture.width && ringed.height == fixture.height, "\(fixture)")
            #expect(ringed.pixels == whole.pixels, "\(fixture) \(pattern)")
            #expect(ringed.metadata.knownOpaque == whole.metadata.knownOpaque, "\(fixture)")
            #expect(whole.pixels == Fixtures.premultiplied(fixture.straight, width: fixture.width, height: fixture.height).pixels,
                    "\(fixture)")
            let ring = try #require(run.output)
            #expect(ring.mostRowsHeld <= ring.slots)
        }
    }

    /// The streamed path is the one taken (not a whole decode passed through the stream), and a
    /// stream as tall as the image holds the same image.
    @Test func gifTIFFAndBMPStreamTheirRows() throws {
        for fixture in Self.fixtures {
            let stream = RowStream(capacity: Int.max)
            let streamed = try ImageDecoder.decode(fixture.bytes, name: fixture.name, limits: .standard, into: stream)
            #expect(streamed == fixture.streams, "\(fixture)")
            guard streamed else { continue }
            stream.finish()
            #expect(try stream.image().pixels == decodeBytes(fixture.bytes).pixels, "\(fixture)")
        }
    }

    /// A run-length file whose codes stop before the last row is refused before any row is made.
    @Test func aShortRunLengthFileIsRefusedFirst() throws {
        let (codes, _) = Self.runLengthCodes(width: 300, height: 40, nibbles: false, seed: 3)
        let cut = Array(codes.prefix(codes.count / 2))
        let bytes = TestBMP.file(width: 300, height: 40, bits: 8, compression: 1, colours: 2,
                                 extra: TestBMP.quads([[0, 0, 0], [255, 255, 255]]), pixels: cut)
        let stream = RowStream(capacity: Int.max)
        let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: "cut.bmp", limits: .standard, into: stream) }
        #expect(message?.hasPrefix("cut.bmp: truncated BMP data (the run-length data ends after") == true, "\(message ?? "")")
        #expect(stream.shape == nil)
    }
}
