import Testing
import SumiKit

/// A stream as tall as its image holds one frame: the image's own pixels. A whole image streamed to
/// a row stage is read in place, and a collected stream's ring becomes the image — the buffer's
/// address is the proof that no second frame was made — with the same bytes.
@Suite struct WholeFrameTests {
    /// A 5x7 image whose every byte differs from its neighbours'.
    static func sample(width: Int = 5, height: Int = 7) -> Image {
        Image(width: width, height: height, pixels: (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    }

    static func address(_ image: Image) -> UInt? {
        image.pixels.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test func aWholeStreamReadsTheImageInPlace() throws {
        let image = Self.sample()
        let stream = RowStream.whole(image)
        #expect(UInt(bitPattern: stream.ring.base) == Self.address(image))
        #expect(stream.publishedRows == image.height)
        for y in 0..<image.height {
            let row = Array(UnsafeBufferPointer(start: stream.row(y), count: image.stride))
            #expect(row == Array(image.pixels[(y * image.stride)..<((y + 1) * image.stride)]))
        }
        let back = try stream.image()
        #expect(Self.address(back) == Self.address(image))
        #expect(back.pixels == image.pixels)
    }

    @Test func aCollectedStreamHandsOverItsRing() throws {
        // Rows written in bands of 3 and 4 into a stream that collects the image: the image is the
        // ring itself, with every row's bytes.
        let expected = Self.sample()
        let stream = RowStream(capacity: Int.max)
        try stream.begin(ImageShape(expected))
        let ring = stream.ring
        #expect(ring.rows == expected.height)
        var y = 0
        for band in [3, 4] {
            try stream.reserve(through: y + band)
            for row in y..<(y + band) {
                for i in 0..<expected.stride { stream.row(row)[i] = expected.pixels[row * expected.stride + i] }
            }
            stream.publish(through: y + band)
            y += band
        }
        stream.finish()
        let image = try stream.image()
        #expect(Self.address(image) == UInt(bitPattern: ring.base))
        #expect(image.pixels == expected.pixels)
        #expect((image.width, image.height) == (expected.width, expected.height))
    }

    @Test func deliveringIntoACollectingStreamAdoptsThePixels() throws {
        let image = Self.sample(width: 3, height: 9)
        let stream = RowStream(capacity: Int.max)
        try stream.deliver(image)
        stream.finish()
        let collected = try stream.image()
        #expect(Self.address(collected) == Self.address(image))
        #expect(collected.pixels == image.pixels)
    }
}
