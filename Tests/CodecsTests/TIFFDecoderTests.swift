import Foundation
@testable import SumiCodecs
import SumiKit
import Testing

/// TIFF through libtiff: sample depths and colour spaces to 8-bit RGBA, Orientation, BigTIFF,
/// compressions and layouts (made with libtiff's own tiffcp), and errors.
@Suite struct TIFFDecoderTests {
    func pixels(_ tiff: TestTIFF, orient: Bool = true) throws -> (image: Image, rgba: [UInt8]) {
        let image = try decodeBytes(tiff.bytes(), orient: orient)
        return (image, straightPixels(image))
    }

    /// round(v × 255 / max), the rounding Pillow's I;16 scaled by 255/65535 gives.
    func rounded(_ v: Int, most: Int) -> UInt8 { UInt8((v * 255 + most / 2) / most) }

    @Test func sixteenBitSamplesAreRoundedNotTruncated() throws {
        // 200 and 32767 are where v >> 8 (libtiff's RGBA interface, gdk-pixbuf) differs from rounding.
        let values = [0, 200, 385, 32767, 32896, 65407, 65535, 51_456]
        let tiff = TestTIFF(width: values.count, height: 1, bits: [16], photometric: 1, data: TestTIFF.words(values))
        let decoded = try pixels(tiff)
        #expect(stride(from: 0, to: decoded.rgba.count, by: 4).map { decoded.rgba[$0] } == values.map { rounded($0, most: 65535) })
        #expect(decoded.image.metadata.knownOpaque)
        // 16-bit RGB the same, channel by channel. (ImageMagick is no reference here: it floors.)
        let rgb = values.flatMap { [$0, 65535 - $0, $0 / 2] }
        let colour = try pixels(TestTIFF(width: values.count, height: 1, bits: [16, 16, 16], photometric: 2, data: TestTIFF.words(rgb)))
        #expect(colour.rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) == rgb.map { rounded($0, most: 65535) })
    }

    @Test func twelveBitFloatAndSignedSamples() throws {
        let twelve = [0, 4095, 2048, 1]
        // 12-bit samples packed two to three bytes, most significant bits first.
        var packed: [UInt8] = []
        for i in stride(from: 0, to: twelve.count, by: 2) {
            let a = twelve[i], b = twelve[i + 1]
            packed += [UInt8(a >> 4), UInt8((a & 15) << 4 | b >> 8), UInt8(b & 255)]
        }
        let grey = try pixels(TestTIFF(width: 4, height: 1, bits: [12], photometric: 1, data: packed))
        #expect((0..<4).map { grey.rgba[$0 * 4] } == twelve.map { rounded($0, most: 4095) })
        var float = TestTIFF(width: 6, height: 1, bits: [32], photometric: 1, data: TestTIFF.floats([0, 1, 0.5, -1, 2, .nan]))
        float.sampleFormat = 3
        let floats = try pixels(float).rgba
        #expect((0..<6).map { floats[$0 * 4] } == [0, 255, 128, 0, 255, 0])
        var signed = TestTIFF(width: 3, height: 1, bits: [16], photometric: 1, data: TestTIFF.words([0xFFFF, 32767, 16384]))
        signed.sampleFormat = 2
        let signedGreys = try pixels(signed).rgba
        // Negative values black, the others on the 16-bit scale (Pillow's I;16S).
        #expect((0..<3).map { signedGreys[$0 * 4] } == [0, 127, 64])
    }

    @Test func cmykAndLabBecomeSRGB() throws {
        let inks: [[Int]] = [[0, 0, 0, 0], [255, 0, 0, 0], [0, 0, 0, 255], [128, 64, 0, 51]]
        // Pillow's CMYK to RGB: (255 - K) - C × (255 - K) / 255, rounded as its MULDIV255.
        func expected(_ ink: [Int]) -> [UInt8] {
            let white = 255 - ink[3]
            return (0..<3).map { c in let v = ink[c] * white + 128; return UInt8(white - (v + (v >> 8)) >> 8) } + [255]
        }
        let cmyk = try pixels(TestTIFF(width: 4, height: 1, bits: [8, 8, 8, 8], photometric: 5, data: inks.flatMap { $0.map(UInt8.init) }))
        #expect(cmyk.rgba == inks.flatMap(expected))
        let cmyk16 = try pixels(TestTIFF(width: 4, height: 1, bits: [16, 16, 16, 16], photometric: 5,
                                         data: TestTIFF.words(inks.flatMap { $0.map { $0 * 257 } })))
        #expect(cmyk16.rgba == cmyk.rgba)
        // CIELab: L 0-255 for 0-100, a and b signed. White must be white, black black, and L 50 a
        // neutral grey (sRGB 119).
        let lab = try pixels(TestTIFF(width: 3, height: 1, bits: [8, 8, 8], photometric: 8, data: [255, 0, 0, 0, 0, 0, 128, 0, 0]))
        #expect(Array(lab.rgba[0..<8]) == [255, 255, 255, 255, 0, 0, 0, 255])
        #expect(lab.rgba[8] == lab.rgba[9] && lab.rgba[9] == lab.rgba[10] && abs(Int(lab.rgba[8]) - 119) <= 1)
        let lab16 = try pixels(TestTIFF(width: 1, height: 1, bits: [16, 16, 16], photometric: 8, data: TestTIFF.words([65535, 0, 0])))
        #expect(lab16.rgba == [255, 255, 255, 255])
        // A red: a = +80 must come out red, not grey.
        let red = try pixels(TestTIFF(width: 1, height: 1, bits: [8, 8, 8], photometric: 8, data: [136, 80, 67]))
        #expect(red.rgba[0] > 200 && red.rgba[1] < 60 && red.rgba[2] < 60)
    }

    @Test func paletteAndAlphaKinds() throws {
        var palette = TestTIFF(width: 4, height: 1, bits: [2], photometric: 3, data: [0b0001_1011])
        let reds: [UInt16] = [65535, 0, 0, 2570], greens: [UInt16] = [0, 65535, 0, 5140], blues: [UInt16] = [0, 0, 65535, 7710]
        palette.colorMap = reds + greens + blues
        let colours: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 10, 20, 30, 255]
        #expect(try pixels(palette).rgba == colours)
        // Grey with unassociated alpha is premultiplied; associated alpha is kept.
        var straight = TestTIFF(width: 1, height: 1, bits: [8, 8], photometric: 1, data: [200, 128])
        straight.extraSamples = [2]
        let s = try pixels(straight)
        #expect(s.image.pixels == [100, 100, 100, 128] && !s.image.metadata.knownOpaque)
        var associated = straight
        associated.extraSamples = [1]
        associated.data = [100, 128]
        #expect(try pixels(associated).image.pixels == [100, 100, 100, 128])
        // An unspecified fourth sample is padding (Pillow's RGBX), not alpha.
        var padded = TestTIFF(width: 1, height: 1, bits: [8, 8, 8, 8], photometric: 2, data: [10, 20, 30, 0])
        padded.extraSamples = [0]
        #expect(try pixels(padded).image.pixels == [10, 20, 30, 255])
    }

    @Test func orientationTurnsTheImageAndSwapsItsSize() throws {
        // 3×2 with six distinct greys; expected(o) is the upright picture by EXIF's definition.
        let stored: [[UInt8]] = [[10, 20, 30], [40, 50, 60]]
        func upright(_ o: Int) -> [[UInt8]] {
            let rows = stored, w = 3, h = 2
            switch o {
            case 2: return rows.map { $0.reversed() }
            case 3: return rows.reversed().map { $0.reversed() }
            case 4: return rows.reversed()
            case 5: return (0..<w).map { x in (0..<h).map { rows[$0][x] } }
            case 6: return (0..<w).map { x in (0..<h).reversed().map { rows[$0][x] } }
            case 7: return (0..<w).reversed().map { x in (0..<h).reversed().map { rows[$0][x] } }
            case 8: return (0..<w).reversed().map { x in (0..<h).map { rows[$0][x] } }
            default: return rows
            }
        }
        for o in 1...8 {
            var tiff = TestTIFF(width: 3, height: 2, bits: [8], photometric: 1, data: stored.flatMap { $0 })
            tiff.orientation = o
            let turned = try pixels(tiff)
            let want = upright(o)
            #expect(turned.image.width == want[0].count && turned.image.height == want.count, "orientation \(o)")
            #expect(stride(from: 0, to: turned.rgba.count, by: 4).map { turned.rgba[$0] } == want.flatMap { $0 }, "orientation \(o)")
            #expect(turned.image.metadata.sourceOrientation == o && turned.image.metadata.orientationApplied)
            let kept = try pixels(tiff, orient: false)
            #expect(kept.image.width == 3 && stride(from: 0, to: kept.rgba.count, by: 4).map { kept.rgba[$0] } == stored.flatMap { $0 })
            #expect(kept.image.metadata.orientationApplied == (o == 1))
        }
    }

    @Test func bigTIFFDecodesLikeClassic() throws {
        var tiff = TestTIFF(width: 2, height: 2, bits: [8, 8, 8], photometric: 2, data: (0..<12).map { UInt8($0 * 20) })
        let classic = try pixels(tiff).rgba
        tiff.big = true
        let bytes = tiff.bytes()
        #expect(bytes[2] == 43 && ImageFormat(detecting: bytes) == .tiff)
        #expect(straightPixels(try decodeBytes(bytes)) == classic)
    }

    @Test func badTIFFsAreOneLineErrorsNamingTheFile() throws {
        let tiff = TestTIFF(width: 64, height: 64, bits: [8, 8, 8], photometric: 2, data: [UInt8](repeating: 7, count: 64 * 64 * 3))
        let bytes = tiff.bytes()
        // The strip cut short: libtiff's complaint, on one line, after the file's name.
        var short = tiff
        short.stripBytes = short.data.count
        short.data.removeLast(short.data.count - 200)
        let cut = short.bytes()
        let message = errorMessage { _ = try ImageDecoder.decode(cut, name: "cut.tif") }
        #expect(message?.hasPrefix("cut.tif: ") == true && message?.contains("\n") == false, "\(message ?? "")")
        // Refused before any pixel memory: a 100000×100000 header.
        let huge = TestTIFF(width: 100_000, height: 100_000, bits: [8], photometric: 1, data: [0])
        let refused = errorMessage { _ = try ImageDecoder.decode(huge.bytes(), name: "huge.tif") }
        #expect(refused?.contains("more than max-pixels") == true, "\(refused ?? "")")
        #expect(errorMessage { _ = try ImageDecoder.decode(Array(bytes.prefix(12)), name: "short.tif") }?.hasPrefix("short.tif: ") == true)
    }

    /// A strip or tile that starts past the end of the file is named as such (issue 35 item 16):
    /// libtiff said "got 18446744071562133626 bytes" (the file's size less the offset, negative,
    /// printed unsigned).
    @Test func aStripPastTheEndOfTheFileIsSaidPlainly() throws {
        var strip = TestTIFF(width: 20, height: 10, bits: [8], photometric: 1, data: [UInt8](repeating: 9, count: 200))
        strip.firstOffset = 2_147_421_990
        var tiled = TestTIFF(width: 20, height: 10, bits: [8], photometric: 1, data: [UInt8](repeating: 9, count: 200))
        tiled.tileSize = (16, 16)
        tiled.firstOffset = 2_147_421_990
        for (name, tiff, what) in [("strip.tif", strip, "the strip at row 0"), ("tiled.tif", tiled, "the tile at 0,0")] {
            let bytes = tiff.bytes()
            let message = errorMessage { _ = try ImageDecoder.decode(bytes, name: name) }
            #expect(message == "\(name): corrupt TIFF data: \(what) starts at byte 2147421990, past the end of the file (\(bytes.count) bytes)",
                    "\(message ?? "")")
        }
    }
}
