#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// Pure pixel operations behind `flip` and `rotate`, on premultiplied RGBA.
/// They move pixels only; the stages decide what happens to the image's side data.
public enum PixelGeometry {
    /// Mirrors left–right (`horizontal`) and/or top–bottom (`vertical`).
    public static func flip(_ image: Image, horizontal: Bool, vertical: Bool) -> Image {
        var flipped = image
        flipInPlace(&flipped, horizontal: horizontal, vertical: vertical)
        return flipped
    }

    /// `flip` on the image's own pixels: no second frame when the caller holds the only reference.
    public static func flipInPlace(_ image: inout Image, horizontal: Bool, vertical: Bool) {
        let w = image.width, h = image.height
        guard w > 0, h > 0, horizontal || vertical else { return }
        image.pixels.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: UInt32.self) { px in
                func mirror(_ row: Int) {
                    var a = row * w, b = row * w + w - 1
                    while a < b {
                        px.swapAt(a, b)
                        a += 1
                        b -= 1
                    }
                }
                guard vertical else {
                    for y in 0..<h { mirror(y) }
                    return
                }
                var top = 0, bottom = h - 1
                while top < bottom {
                    for x in 0..<w { px.swapAt(top * w + x, bottom * w + x) }
                    if horizontal {
                        mirror(top)
                        mirror(bottom)
                    }
                    top += 1
                    bottom -= 1
                }
                if top == bottom && horizontal { mirror(top) }
            }
        }
    }

    /// Turns by a multiple of 90° clockwise (`quarterTurns` 0…3), moving pixels exactly.
    public static func rotateQuarterTurns(_ image: Image, _ quarterTurns: Int) -> Image {
        let turns = ((quarterTurns % 4) + 4) % 4
        if turns == 0 { return image }
        if turns == 2 { return flip(image, horizontal: true, vertical: true) }
        let w = image.width, h = image.height
        // Output is h wide and w high.
        return image.pixels.withUnsafeBufferPointer { src in
            Image(width: h, height: w) { dst in
                for y in 0..<w {
                    for x in 0..<h {
                        // Clockwise: output (x, y) comes from source (y, h-1-x); counter-clockwise: (w-1-y, x).
                        let sx = turns == 1 ? y : w - 1 - y
                        let sy = turns == 1 ? h - 1 - x : x
                        let s = (sy * w + sx) * 4, d = (y * h + x) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
    }

    /// The size of the box that holds a `width × height` image turned by `degrees`.
    public static func rotatedSize(width: Int, height: Int, degrees: Double) -> (width: Int, height: Int) {
        let r = degrees * .pi / 180
        let c = abs(cos(r)), s = abs(sin(r))
        let w = Double(width) * c + Double(height) * s, h = Double(width) * s + Double(height) * c
        // A hair of tolerance so 30° of a square does not grow a pixel from rounding noise.
        return (max(1, Int((w - 1e-6).rounded(.up))), max(1, Int((h - 1e-6).rounded(.up))))
    }

    /// Turns by any angle (degrees clockwise) into the box that holds the whole result, sampling
    /// bilinearly; corners outside the source are `background`. Edge pixels blend with the background,
    /// so the outline is antialiased.
    public static func rotate(_ image: Image, degrees: Double, background: Color) -> Image {
        let (ow, oh) = rotatedSize(width: image.width, height: image.height, degrees: degrees)
        let r = degrees * .pi / 180
        let c = cos(r), s = sin(r)
        let w = image.width, h = image.height
        let cx = Double(w) / 2, cy = Double(h) / 2, ocx = Double(ow) / 2, ocy = Double(oh) / 2
        let (br, bgreen, bb, ba) = background.premultiplied
        let bgv = (Double(br), Double(bgreen), Double(bb), Double(ba))
        return image.pixels.withUnsafeBufferPointer { src in
            Image(width: ow, height: oh) { dst in
                var acc = (0.0, 0.0, 0.0, 0.0)
                func add(_ ix: Int, _ iy: Int, _ weight: Double) {
                    guard weight > 0 else { return }
                    if ix >= 0 && ix < w && iy >= 0 && iy < h {
                        let i = (iy * w + ix) * 4
                        acc.0 += weight * Double(src[i]); acc.1 += weight * Double(src[i + 1])
                        acc.2 += weight * Double(src[i + 2]); acc.3 += weight * Double(src[i + 3])
                    } else {
                        acc.0 += weight * bgv.0; acc.1 += weight * bgv.1; acc.2 += weight * bgv.2; acc.3 += weight * bgv.3
                    }
                }
                for y in 0..<oh {
                    for x in 0..<ow {
                        // Output pixel centre, turned back (counter-clockwise) into source coordinates.
                        let dx = Double(x) + 0.5 - ocx, dy = Double(y) + 0.5 - ocy
                        let sx = c * dx + s * dy + cx - 0.5, sy = -s * dx + c * dy + cy - 0.5
                        let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                        let fx = sx - Double(x0), fy = sy - Double(y0)
                        acc = (0, 0, 0, 0)
                        add(x0, y0, (1 - fx) * (1 - fy)); add(x0 + 1, y0, fx * (1 - fy))
                        add(x0, y0 + 1, (1 - fx) * fy); add(x0 + 1, y0 + 1, fx * fy)
                        let d = (y * ow + x) * 4
                        let a = min(255, max(0, acc.3.rounded()))
                        dst[d] = UInt8(min(a, max(0, acc.0.rounded())))
                        dst[d + 1] = UInt8(min(a, max(0, acc.1.rounded())))
                        dst[d + 2] = UInt8(min(a, max(0, acc.2.rounded())))
                        dst[d + 3] = UInt8(a)
                    }
                }
            }
        }
    }
}
