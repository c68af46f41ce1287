@testable import SumiCodecs
import SumiKit
import Testing

/// `decode frame=N` of a GIF without outside programs (`make check`): the count and its refusal,
/// the limit on the frames decoded together, and compositing rules read off the format (Pillow
/// compares every frame in GIFFramesReferenceTests).
@Suite struct GIFFramesTests {
    static let red: [UInt8] = [255, 0, 0], blue: [UInt8] = [0, 0, 255], green: [UInt8] = [0, 255, 0]

    /// A 4x3 blue screen (frame 1, with `firstTransparent` as its transparent index), a red 2x1 frame
    /// at (1,1) disposed of as `disposal` with index 2 transparent in its right pixel, then a green
    /// pixel at (0,0).
    static func animation(disposal: Int, firstTransparent: Int? = nil) -> [UInt8] {
        var first = TestGIF(screenWidth: 4, screenHeight: 3, globalTable: [blue, red, green, blue], width: 4, height: 3,
                            indices: [UInt8](repeating: 0, count: 12))
        first.transparentIndex = firstTransparent
        var second = TestGIF(screenWidth: 4, screenHeight: 3, left: 1, top: 1, width: 2, height: 1, indices: [1, 2],
                             transparentIndex: 2)
        second.disposal = disposal
        let third = TestGIF(screenWidth: 4, screenHeight: 3, width: 1, height: 1, indices: [2])
        var gif = first
        gif.later = [second, third]
        return gif.bytes()
    }

    @Test func framesAreCountedAndOnePastTheLastIsRefused() throws {
        let gif = Self.animation(disposal: 1)
        for frame in 1...3 { #expect(try ImageDecoder.decode(gif, name: "a.gif", frame: frame).width == 4) }
        do {
            _ = try ImageDecoder.decode(gif, name: "a.gif", frame: 4)
            Issue.record("frame=4 of three decoded")
        } catch let error as StageError {
            #expect(error.message == "a.gif has 3 frames; frame=4 does not exist")
            #expect(error.parameter == "frame" && error.cause == .usage)
        }
        // A still format still names the animated ones.
        #expect(errorMessage { _ = try ImageDecoder.decode(try PNGEncoder.encode(Image(width: 1, height: 1)), name: "s.png", frame: 2) }?
            .hasSuffix("frame=2 applies to animated GIF and WebP") == true)
    }

    @Test func laterFramesAreDrawnOverTheEarlierAsTheirDisposalSays() throws {
        func colour(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
            let c = image.color(x: x, y: y)
            return [c.red, c.green, c.blue, c.alpha]
        }
        let kept = Self.animation(disposal: 1)
        let second = try ImageDecoder.decode(kept, name: "a.gif", frame: 2)
        // The transparent index leaves frame 1 showing; the canvas has no clear pixel.
        #expect(colour(second, 1, 1) == [255, 0, 0, 255] && colour(second, 2, 1) == [0, 0, 255, 255] && colour(second, 0, 0) == [0, 0, 255, 255])
        #expect(second.metadata.knownOpaque)
        let third = try ImageDecoder.decode(kept, name: "a.gif", frame: 3)
        #expect(colour(third, 0, 0) == [0, 255, 0, 255] && colour(third, 1, 1) == [255, 0, 0, 255])
        // Restored to the background: frame 2's transparent index, so its place is clear — on a
        // canvas that can be (the first frame has a transparent index: Pillow's RGBA canvas) ...
        let cleared = try ImageDecoder.decode(Self.animation(disposal: 2, firstTransparent: 3), name: "a.gif", frame: 3)
        #expect(colour(cleared, 1, 1) == [0, 0, 0, 0] && colour(cleared, 2, 1) == [0, 0, 0, 0] && colour(cleared, 3, 1) == [0, 0, 255, 255])
        #expect(!cleared.metadata.knownOpaque)
        // ... while an opaque first frame keeps Pillow's canvas RGB: the place takes that index's
        // colour (green), opaque.
        let filled = try ImageDecoder.decode(Self.animation(disposal: 2), name: "a.gif", frame: 3)
        #expect(colour(filled, 1, 1) == [0, 255, 0, 255] && colour(filled, 2, 1) == [0, 255, 0, 255] && filled.metadata.knownOpaque)
        // Restored to what was there before it: frame 1's blue.
        let restored = try ImageDecoder.decode(Self.animation(disposal: 3), name: "a.gif", frame: 3)
        #expect(colour(restored, 1, 1) == [0, 0, 255, 255] && colour(restored, 0, 0) == [0, 255, 0, 255])
        // Frame 1 as the first frame's own decode, streamed or whole.
        #expect(try ImageDecoder.decode(kept, name: "a.gif", frame: 1).pixels == (try ImageDecoder.decode(kept, name: "a.gif").pixels))
    }

    @Test func theFramesDecodedTogetherAreBoundedBeforeAnyIsDecoded() throws {
        // Nine 10x10 frames: frame 9 decodes 900 pixels, over 8 x max-pixels 100.
        let frame = TestGIF(screenWidth: 10, screenHeight: 10, globalTable: [Self.red, Self.blue], width: 10, height: 10,
                            indices: [UInt8](repeating: 1, count: 100))
        var gif = frame
        gif.later = [TestGIF](repeating: frame, count: 8)
        let bytes = gif.bytes()
        #expect(try ImageDecoder.decode(bytes, name: "n.gif", maxPixels: 100, frame: 8).pixels.count == 400)
        do {
            _ = try ImageDecoder.decode(bytes, name: "n.gif", maxPixels: 100, frame: 9)
            Issue.record("frame=9 decoded over the limit")
        } catch let error as StageError {
            #expect(error.message == "n.gif: frame=9 is drawn over the 8 frames before it, 900 pixels together, more than 8 x max-pixels (800)")
            #expect(error.cause == .limit)
        }
        // A hostile file of 100,000 one-pixel frames: the last is found and drawn in linear time
        // (each frame costs its own pixels, never the canvas's).
        let tiny = TestGIF(screenWidth: 1, screenHeight: 1, globalTable: [Self.red, Self.blue], width: 1, height: 1, indices: [1])
        var many = tiny
        many.later = [TestGIF](repeating: tiny, count: 99_999)
        let last = try ImageDecoder.decode(many.bytes(), name: "many.gif", frame: 100_000)
        #expect(last.pixels == [0, 0, 255, 255])
    }
}
