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

    @Test(arguments: [(2, false), (4, true), (11, false), (16, true), (200, true), (700, false), (700, true)])
    func streamedRowsGiveTheWholeImagesBytes(colours: Int, translucent: Bool) throws {
        // 300 rows: split into parts as the whole-image encoder splits them (one per core).
        let image = Self.image(width: 181, height: 300, colours: colours, translucent: translucent)
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
}
