import SumiKit

/// A premultiplied RGBA pixel buffer that text is drawn into: an anti-aliased box (border ring and
/// background with exact area coverage at fractional edges) and glyph bitmaps composited "over".
struct Canvas {
    let width: Int
    let height: Int
    var pixels: PixelBuffer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        self.pixels = PixelBuffer(repeating: 0, count: width * height * 4)
    }

    var image: Image { Image(width: width, height: height, pixels: pixels) }

    /// How much of each pixel 0..<count the interval [a, b) covers.
    private static func coverage(_ a: Double, _ b: Double, count: Int) -> [Double] {
        (0..<count).map { i in max(0, min(Double(i + 1), b) - max(Double(i), a)) }
    }

    /// Fills the ring between `outer` and `inner` with `border` and `inner` with `background`
    /// (rectangles in pixels, `inner` inside `outer`). The canvas must still be empty.
    mutating func fillBox(outer: Rect, inner: Rect, border: Color, background: Color) {
        let hasBorder = border.alpha > 0 && (inner.x > outer.x || inner.y > outer.y || inner.maxX < outer.maxX || inner.maxY < outer.maxY)
        guard hasBorder || background.alpha > 0 else { return }
        let ox = Self.coverage(outer.x, outer.maxX, count: width), oy = Self.coverage(outer.y, outer.maxY, count: height)
        let ix = Self.coverage(inner.x, inner.maxX, count: width), iy = Self.coverage(inner.y, inner.maxY, count: height)
        let b = border.premultiplied, g = background.premultiplied
        let bc = [Double(b.0), Double(b.1), Double(b.2), Double(b.3)]
        let gc = [Double(g.0), Double(g.1), Double(g.2), Double(g.3)]
        let w = width
        // Pixels wholly inside `inner` are just the background: on rows wholly inside, that span is
        // filled (or, for a transparent background, left empty) without per-pixel arithmetic.
        let firstInside = ix.firstIndex { $0 >= 1 } ?? w
        let lastInside = ix.lastIndex { $0 >= 1 } ?? -1
        pixels.withUnsafeMutableBufferPointer { px in
            for y in 0..<height where oy[y] > 0 {
                let rowInside = iy[y] >= 1 && oy[y] >= 1
                var x = 0
                while x < w {
                    if rowInside && x == firstInside && lastInside >= firstInside {
                        if g.3 > 0 {
                            for xi in firstInside...lastInside {
                                let i = (y * w + xi) * 4
                                px[i] = g.0; px[i + 1] = g.1; px[i + 2] = g.2; px[i + 3] = g.3
                            }
                        }
                        x = lastInside + 1
                        continue
                    }
                    if ox[x] > 0 {
                        let innerArea = ix[x] * iy[y]
                        let ringArea = hasBorder ? ox[x] * oy[y] - innerArea : 0
                        let i = (y * w + x) * 4
                        for c in 0..<4 {
                            px[i + c] = UInt8(min(255, (bc[c] * ringArea + gc[c] * innerArea).rounded()))
                        }
                    }
                    x += 1
                }
            }
        }
    }

    /// Composites an 8-bit coverage mask in `color` with its top-left at pixel (`x`, `y`).
    mutating func draw(coverage mask: [UInt8], width mw: Int, height mh: Int, x: Int, y: Int, color: Color) {
        let (r, g, b, a) = color.premultiplied
        let cr = UInt32(r), cg = UInt32(g), cb = UInt32(b), ca = UInt32(a)
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + mw), y1 = min(height, y + mh)
        guard x0 < x1, y0 < y1 else { return }
        let w = width
        pixels.withUnsafeMutableBufferPointer { px in
            mask.withUnsafeBufferPointer { m in
                for row in y0..<y1 {
                    var src = (row - y) * mw + (x0 - x)
                    var dst = (row * w + x0) * 4
                    for _ in x0..<x1 {
                        let cov = UInt32(m[src])
                        if cov != 0 {
                            let sa = (ca * cov + 127) / 255
                            let inv = 255 - sa
                            px[dst] = UInt8(min(255, (cr * cov + 127) / 255 + (UInt32(px[dst]) * inv + 127) / 255))
                            px[dst + 1] = UInt8(min(255, (cg * cov + 127) / 255 + (UInt32(px[dst + 1]) * inv + 127) / 255))
                            px[dst + 2] = UInt8(min(255, (cb * cov + 127) / 255 + (UInt32(px[dst + 2]) * inv + 127) / 255))
                            px[dst + 3] = UInt8(min(255, sa + (UInt32(px[dst + 3]) * inv + 127) / 255))
                        }
                        src += 1
                        dst += 4
                    }
                }
            }
        }
    }

    /// Composites a premultiplied RGBA image, scaled in opacity by `opacity`, with its top-left at (`x`, `y`).
    mutating func draw(image: Image, x: Int, y: Int, opacity: UInt8) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + image.width), y1 = min(height, y + image.height)
        guard x0 < x1, y0 < y1 else { return }
        let w = width, iw = image.width, o = UInt32(opacity)
        pixels.withUnsafeMutableBufferPointer { px in
            image.pixels.withUnsafeBufferPointer { s in
                for row in y0..<y1 {
                    var src = ((row - y) * iw + (x0 - x)) * 4
                    var dst = (row * w + x0) * 4
                    for _ in x0..<x1 {
                        let sa = (UInt32(s[src + 3]) * o + 127) / 255
                        if sa != 0 {
                            let inv = 255 - sa
                            for c in 0..<3 {
                                let sc = (UInt32(s[src + c]) * o + 127) / 255
                                px[dst + c] = UInt8(min(255, sc + (UInt32(px[dst + c]) * inv + 127) / 255))
                            }
                            px[dst + 3] = UInt8(min(255, sa + (UInt32(px[dst + 3]) * inv + 127) / 255))
                        }
                        src += 4
                        dst += 4
                    }
                }
            }
        }
    }

    /// Composites a premultiplied RGBA image stretched to `size` (bilinear), top-left at (`x`, `y`);
    /// only the pixels inside the canvas are computed.
    mutating func draw(image: Image, scaledTo size: (width: Int, height: Int), x: Int, y: Int, opacity: UInt8) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + size.width), y1 = min(height, y + size.height)
        guard x0 < x1, y0 < y1, image.width > 0, image.height > 0 else { return }
        let sx = Double(image.width) / Double(size.width), sy = Double(image.height) / Double(size.height)
        let o = UInt32(opacity)
        let iw = image.width, ih = image.height, w = width
        // Per column: left and right source pixels and the right one's weight (0...256).
        let columns = (x0..<x1).map { px -> (Int, Int, UInt32) in
            let u = min(max((Double(px - x) + 0.5) * sx - 0.5, 0), Double(iw - 1))
            let l = Int(u)
            return (l, min(l + 1, iw - 1), UInt32(((u - Double(l)) * 256).rounded()))
        }
        pixels.withUnsafeMutableBufferPointer { dst in
            image.pixels.withUnsafeBufferPointer { src in
                for py in y0..<y1 {
                    let v = min(max((Double(py - y) + 0.5) * sy - 0.5, 0), Double(ih - 1))
                    let ty = Int(v), by = min(ty + 1, ih - 1), wy = UInt32(((v - Double(ty)) * 256).rounded())
                    var d = (py * w + x0) * 4
                    for (l, r, wx) in columns {
                        func channel(_ c: Int) -> UInt32 {
                            let top = UInt32(src[(ty * iw + l) * 4 + c]) * (256 - wx) + UInt32(src[(ty * iw + r) * 4 + c]) * wx
                            let bottom = UInt32(src[(by * iw + l) * 4 + c]) * (256 - wx) + UInt32(src[(by * iw + r) * 4 + c]) * wx
                            return min(255, ((top * (256 - wy) + bottom * wy) >> 16) * o / 255)
                        }
                        let sa = channel(3)
                        if sa != 0 {
                            let inv = 255 - sa
                            for c in 0..<3 { dst[d + c] = UInt8(min(255, channel(c) + (UInt32(dst[d + c]) * inv + 127) / 255)) }
                            dst[d + 3] = UInt8(min(255, sa + (UInt32(dst[d + 3]) * inv + 127) / 255))
                        }
                        d += 4
                    }
                }
            }
        }
    }
}
