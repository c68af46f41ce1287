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

    @Test func aWholeStreamReadsAHandedOverImageInPlace() throws {
        let image = Self.sample()
        let expected = Self.sample().pixels  // equal bytes in another array: `image` stays the only holder
        let before = Self.address(image)
        let stream = RowStream.whole(consume image)
        #expect(UInt(bitPattern: stream.ring.base) == before)
        #expect(stream.publishedRows == 7)
        let stride = 5 * 4
        for y in 0..<7 {
            let row = Array(UnsafeBufferPointer(start: stream.row(y), count: stride))
            #expect(row == Array(expected[(y * stride)..<((y + 1) * stride)]))
        }
        let back = try stream.image()
        #expect(Self.address(back) == before)
        #expect(back.pixels == expected)
    }

    @Test func aWholeStreamOfAnImageStillHeldIsACopy() throws {
        // The caller keeps its image: the ring must not be its pixels, or a write into the ring (a
        // test driver's filler, a careless stage) would change an image that copy-on-write says
        // cannot change.
        let image = Self.sample()
        let stream = RowStream.whole(image)
        #expect(UInt(bitPattern: stream.ring.base) != Self.address(image))
        stream.row(0)[0] = image.pixels[0] &+ 1
        #expect(image.pixels == Self.sample().pixels)
        let back = try stream.image()
        #expect(back.pixels[0] == image.pixels[0] &+ 1)
        #expect(Array(back.pixels[1...]) == Array(image.pixels[1...]))
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

    @Test func deliveringIntoACollectingStreamAdoptsHandedOverPixels() throws {
        let image = Self.sample(width: 3, height: 9)
        let expected = Self.sample(width: 3, height: 9).pixels
        let before = Self.address(image)
        let stream = RowStream(capacity: Int.max)
        try stream.deliver(consume image)
        stream.finish()
        let collected = try stream.image()
        #expect(Self.address(collected) == before)
        #expect(collected.pixels == expected)
    }

    @Test func deliveringAnImageStillHeldCopiesIt() throws {
        let image = Self.sample(width: 3, height: 9)
        let stream = RowStream(capacity: Int.max)
        try stream.deliver(image)
        stream.finish()
        let collected = try stream.image()
        #expect(Self.address(collected) != Self.address(image))
        #expect(collected.pixels == image.pixels)
    }

    @Test func theHandedOverBufferIsTheImagesAloneAndWrittenInPlace() throws {
        // The ring's buffer goes into the image and back without a copy (the storage's own address
        // stays), and nothing else still holds it: a write after the hand-over does not copy.
        let image = Self.sample()
        let before = image.pixels.baseAddress
        let stream = RowStream.whole(consume image)
        #expect(UnsafePointer(stream.ring.base) == before)
        var back = try stream.image()
        #expect(back.pixels.baseAddress == before)
        let alone = back.pixels.isUniquelyReferenced()
        #expect(alone)
        back.pixels[0] = back.pixels[0] &+ 1
        #expect(back.pixels.baseAddress == before)
        // Into a collecting stream and out again, twice.
        let again = RowStream(capacity: Int.max)
        try again.deliver(consume back)
        again.finish()
        #expect(try again.image().pixels.baseAddress == before)
    }

    @Test func ringRowsWrittenWhileACopyExistsNeverChangeTheCopy() throws {
        // The image is handed over, but its buffer is still shared with a copy kept aside: the ring
        // must be a copy, so writing every row leaves the kept buffer as it was.
        let image = Self.sample()
        let kept = image.pixels
        let stream = RowStream(capacity: Int.max)
        try stream.deliver(consume image)
        stream.finish()
        #expect(UnsafePointer(stream.ring.base) != kept.baseAddress)
        for y in 0..<7 {
            for i in 0..<(5 * 4) { stream.row(y)[i] = 255 &- kept[y * 20 + i] }
        }
        #expect(kept == Self.sample().pixels)
        let back = try stream.image()
        #expect(back.pixels == Self.sample().pixels.map { 255 &- $0 })
        // A stream that makes its own frame, collected while a copy of its image is taken: the copy
        // shares the storage and a later write to either side copies.
        let collecting = RowStream(capacity: Int.max)
        try collecting.begin(ImageShape(width: 2, height: 2))
        try collecting.reserve(through: 2)
        for y in 0..<2 { for i in 0..<8 { collecting.row(y)[i] = UInt8(y * 8 + i) } }
        collecting.publish(through: 2)
        collecting.finish()
        var first = try collecting.image()
        let second = first
        first.pixels[0] = 99
        #expect(Array(second.pixels) == Array(0..<16))
        #expect(first.pixels[0] == 99 && first.pixels.baseAddress != second.pixels.baseAddress)
    }

    @Test func aFailedFrameStreamReportsTheFailure() throws {
        let stream = RowStream(capacity: Int.max)
        try stream.begin(ImageShape(Self.sample()))
        stream.fail(StageError("decoder gave up"))
        #expect(throws: (any Error).self) { try stream.image() }
    }

    @Test func aFrameTooLargeToAddressIsAnError() {
        let stream = RowStream(capacity: Int.max)
        #expect(throws: StageError.self) { try stream.begin(ImageShape(width: Int.max / 2, height: 3)) }
    }
}
