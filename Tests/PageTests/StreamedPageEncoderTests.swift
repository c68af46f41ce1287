import CZlib
import Testing
import SumiKit
@testable import SumiPage
import SumiCodecs

/// Rows fed one by one to `StreamedPageEncoder` give the bytes `FlateImageEncoder` makes of the whole
/// image: palette indices (at the depth the colours need), RGB, and alpha.
@Suite struct StreamedPageEncoderTests {
    /// A `width`x`height` image of `colours` distinct premultiplied pixels in bands and noise; every
    /// seventh colour half transparent when `translucent`.
    static func image(width: Int, height: Int, colours: Int, translucent: Bool) -> Image {
        var seed: UInt32 = 12345
        func next() -> Int {
            seed = seed &* 1_103_515_245 &+ 12345
            return Int(seed >> 16)
        }
        let palette: [(UInt8, UInt8, UInt8, UInt8)] = (0..<colours).map { i in
            let a: UInt8 = translucent && i % 7 == 3 ? 128 : 255
            func c(_ v: Int) -> UInt8 { UInt8(v * Int(a) / 255) }
            return (c(i * 37 % 256), c(i * 91 % 256), c(i * 53 % 256), a)
        }
        return Image(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let k = (x / 9 + y / 5) % 5 == 0 ? next() % colours : (x / 23 + y / 11) % colours
                    let p = palette[k], i = (y * width + x) * 4
                    out[i] = p.0; out[i + 1] = p.1; out[i + 2] = p.2; out[i + 3] = p.3
                }
            }
        }
    }

    static func whole(_ image: Image, _ channels: FlateImageEncoder.Channels, level: Int32) throws -> [UInt8] {
        let sink = ByteCollector()
        _ = try FlateImageEncoder(image: image, channels: channels, level: level).encode(to: sink)
        return sink.bytes
    }

    @Test(arguments: [(2, false, 300), (4, true, 300), (11, false, 300), (16, true, 300), (200, true, 300), (700, false, 300),
                      (700, true, 300), (700, true, 5000), (16, false, 13000)])
    func streamedRowsGiveTheWholeImagesBytes(colours: Int, translucent: Bool, height: Int) throws {
        // 5000 rows of RGB (544 bytes with the filter byte) and 13000 of 4-bit indices make several
        // parts (FlateParts.partBytes); the alpha of 5000 rows one.
        let image = Self.image(width: 181, height: height, colours: colours, translucent: translucent)
        let encoder = try StreamedPageEncoder(width: image.width, height: image.height, knownOpaque: false, level: 6)
        try image.pixels.withUnsafeBufferPointer { px in
            for y in 0..<image.height {
                try encoder.add(UnsafeBufferPointer(rebasing: px[(y * image.stride)..<((y + 1) * image.stride)]))
            }
        }
        let streamed = try encoder.finish()
        #expect(encoder.isTranslucent == translucent)
        #expect(streamed.alpha == (translucent ? try Self.whole(image, .alpha, level: 6) : nil))
        if let indexed = try IndexedImage(image, minimumBits: 2) {
            let found = try #require(streamed.indexed, "\(colours) colours should give a palette")
            #expect(streamed.rgb == nil)
            #expect(found.colors == indexed.colors)
            #expect(found.bitsPerIndex == indexed.bitsPerIndex)
            #expect(found.bytes == (try Self.whole(image, .indexed(indexed), level: 8)))
        } else {
            #expect(colours > 256)
            #expect(streamed.indexed == nil)
            #expect(streamed.rgb == (try Self.whole(image, .rgb, level: 6)))
        }
    }

    /// A stream of several parts is one valid zlib stream (zlib checks the joined Adler-32) whose
    /// rows, un-predicted, are the image's samples; the parts cost almost nothing in size.
    @Test func partsJoinIntoOneStreamOfTheImagesRows() throws {
        let image = Self.image(width: 401, height: 4000, colours: 700, translucent: false)
        let rowLength = image.width * 3
        #expect(FlateParts.bounds(height: image.height, rowLength: rowLength).count - 1 == 5)
        let stream = try Self.whole(image, .rgb, level: 6)
        var inflated = [UInt8](repeating: 0, count: image.height * (rowLength + 1) + 1)
        var length = UInt(inflated.count)
        let status = inflated.withUnsafeMutableBufferPointer { out in
            stream.withUnsafeBufferPointer { uncompress(out.baseAddress, &length, $0.baseAddress, UInt($0.count)) }
        }
        #expect(status == Z_OK)
        #expect(Int(length) == image.height * (rowLength + 1))
        // Undo the PNG predictors row by row and compare with the samples.
        var previous = [UInt8](repeating: 0, count: rowLength), expected = [UInt8](repeating: 0, count: rowLength)
        var mismatches = 0
        for y in 0..<image.height {
            let row = Array(inflated[(y * (rowLength + 1))..<((y + 1) * (rowLength + 1))])
            var current = [UInt8](repeating: 0, count: rowLength)
            for i in 0..<rowLength {
                let a = i >= 3 ? Int(current[i - 3]) : 0, b = Int(previous[i]), c = i >= 3 ? Int(previous[i - 3]) : 0
                let predicted: Int
                switch row[0] {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                default:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                }
                current[i] = UInt8(truncatingIfNeeded: Int(row[i + 1]) + predicted)
            }
            image.pixels.withUnsafeBufferPointer { px in
                expected.withUnsafeMutableBufferPointer {
                    FlateImageEncoder.rgbSamples(UnsafeBufferPointer(rebasing: px[(y * image.stride)..<((y + 1) * image.stride)]),
                                                 width: image.width, into: $0)
                }
            }
            if current != expected { mismatches += 1 }
            previous = current
        }
        #expect(mismatches == 0)
        // One part for the whole image, compressed by zlib alone, for the size comparison.
        let single = [UInt8](inflated[0..<Int(length)])
        var bound = compressBound(UInt(single.count)), one = [UInt8](repeating: 0, count: Int(compressBound(UInt(single.count))))
        _ = one.withUnsafeMutableBufferPointer { out in single.withUnsafeBufferPointer { compress2(out.baseAddress, &bound, $0.baseAddress, UInt($0.count), 6) } }
        #expect(Double(stream.count) <= Double(bound) * 1.01, "\(stream.count) bytes in parts vs \(bound) in one")
    }
}
