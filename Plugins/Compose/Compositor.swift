import SumiKit

/// Composites a premultiplied RGBA image onto a rectangle of another with a `BlendMode`, in 8-bit
/// fixed point, touching only the pixels under the source (clipped to the destination).
///
/// All products are formed in units of 1/255² and rounded once (`(x + 127) / 255`), so `over` of an
/// opaque source is an exact copy and a transparent source leaves the destination byte-identical.
/// Results are clamped to valid premultiplied values (colour ≤ alpha).
enum Compositor {
    /// Whether compositing `source` at (`x`, `y`) would touch a destination of `width × height`.
    static func reaches(_ source: Image, atX x: Int, y: Int, width: Int, height: Int, opacity: Double) -> Bool {
        max(0, x) < min(width, x + source.width) && max(0, y) < min(height, y + source.height)
            && Int((min(1, max(0, opacity)) * 65536).rounded()) > 0
    }

    /// Composites the part of `source` (top-left at `x`, `y`) that falls on destination rows `rows`
    /// of a destination `destinationWidth` pixels wide, whose row `y` is at `row(y)`: a band of a
    /// streamed image gets the same bytes as the whole image would.
    static func composite(_ source: Image, atX x: Int, y: Int, ontoRows rows: Range<Int>, of destinationWidth: Int,
                          mode: BlendMode, opacity: Double, row: (Int) -> UnsafeMutablePointer<UInt8>) {
        let x0 = max(0, x), y0 = max(rows.lowerBound, y)
        let x1 = min(destinationWidth, x + source.width), y1 = min(rows.upperBound, y + source.height)
        let opacityFixed = Int((min(1, max(0, opacity)) * 65536).rounded())
        guard x0 < x1, y0 < y1, opacityFixed > 0 else { return }
        let region = Region(sourceX: x0 - x, sourceY: y0 - y, sourceWidth: source.width,
                            x: x0, y: y0, width: x1 - x0, height: y1 - y0,
                            destinationWidth: destinationWidth, opacity: opacityFixed)
        source.pixels.withUnsafeBufferPointer { src in
            switch mode {
            case .over: run(Over.self, region, src, row)
            case .multiply: run(Multiply.self, region, src, row)
            case .screen: run(Screen.self, region, src, row)
            case .overlay: run(Overlay.self, region, src, row)
            case .darken: run(Darken.self, region, src, row)
            case .lighten: run(Lighten.self, region, src, row)
            case .add: run(Add.self, region, src, row)
            }
        }
    }

    /// The clipped rectangle to composite, and the opacity in 1/65536.
    struct Region {
        var sourceX: Int, sourceY: Int, sourceWidth: Int
        var x: Int, y: Int, width: Int, height: Int
        var destinationWidth: Int
        var opacity: Int
    }

    @inline(__always)
    private static func run<M: PixelBlend>(_ mode: M.Type, _ r: Region, _ src: UnsafeBufferPointer<UInt8>,
                                           _ destinationRow: (Int) -> UnsafeMutablePointer<UInt8>) {
        guard let srcBase = src.baseAddress else { return }
        let scaled = r.opacity < 65536
        for row in 0..<r.height {
            var s = srcBase + ((r.sourceY + row) * r.sourceWidth + r.sourceX) * 4
            var d = destinationRow(r.y + row) + r.x * 4
            for _ in 0..<r.width {
                var sa = Int(s[3])
                var sr = Int(s[0]), sg = Int(s[1]), sb = Int(s[2])
                if scaled {
                    sa = (sa * r.opacity + 32768) >> 16
                    sr = (sr * r.opacity + 32768) >> 16
                    sg = (sg * r.opacity + 32768) >> 16
                    sb = (sb * r.opacity + 32768) >> 16
                }
                if sa != 0 {
                    if M.copiesOpaque && sa == 255 {
                        d[0] = UInt8(truncatingIfNeeded: sr); d[1] = UInt8(truncatingIfNeeded: sg)
                        d[2] = UInt8(truncatingIfNeeded: sb); d[3] = 255
                    } else {
                        let da = Int(d[3])
                        let ao = M.alpha(sa, da)
                        d[0] = clamp(M.color(sr, sa, Int(d[0]), da), ao)
                        d[1] = clamp(M.color(sg, sa, Int(d[1]), da), ao)
                        d[2] = clamp(M.color(sb, sa, Int(d[2]), da), ao)
                        d[3] = UInt8(truncatingIfNeeded: ao)
                    }
                }
                s += 4
                d += 4
            }
        }
    }

    @inline(__always)
    private static func clamp(_ value: Int, _ alpha: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), alpha))
    }
}
