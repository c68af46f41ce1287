import Testing
import SumiKit
import SumiTransform

/// `PixelGeometry.flipInPlace` (the vertical `flip`'s one frame) moves every pixel where a mirror
/// puts it, for odd and even sides (a middle row or column stays, mirrored only across).
@Suite struct FlipInPlaceTests {
    @Test(arguments: [(1, 1), (3, 7), (4, 6), (5, 1), (1, 4)])
    func everyPixelLandsWhereTheMirrorPutsIt(size: (Int, Int)) {
        let (w, h) = size
        let original = Image(width: w, height: h, pixels: (0..<(w * h * 4)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
        for (horizontal, vertical) in [(true, false), (false, true), (true, true)] {
            var flipped = original
            PixelGeometry.flipInPlace(&flipped, horizontal: horizontal, vertical: vertical)
            for y in 0..<h {
                for x in 0..<w {
                    let sx = horizontal ? w - 1 - x : x, sy = vertical ? h - 1 - y : y
                    let d = (y * w + x) * 4, s = (sy * w + sx) * 4
                    #expect(Array(flipped.pixels[d..<(d + 4)]) == Array(original.pixels[s..<(s + 4)]),
                            "\(w)x\(h) horizontal \(horizontal) vertical \(vertical) at \(x),\(y)")
                }
            }
        }
    }
}
