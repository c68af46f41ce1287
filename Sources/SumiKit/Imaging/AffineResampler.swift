/// Resamples a premultiplied RGBA image through an affine map (a turned, scaled, moved raster layer)
/// in one pass: each output pixel's centre is mapped back into the source and the source pixels
/// around it are weighted with a `ResampleFilter`, separably along the source's axes. When the map
/// shrinks, the filter is widened by the shrink factor (as `Resampler` does), so it also averages.
///
/// Outside the source is transparent: the weights of taps that fall outside still count, so edges
/// fade out over the filter's width instead of being cut.
public struct AffineResampler: Sendable {
    public let filter: ResampleFilter

    public init(filter: ResampleFilter) { self.filter = filter }

    /// Filter weights sampled at 1/`tableSteps` of a source pixel (the filter is evaluated once here,
    /// not per tap).
    private static let tableSteps = 256

    /// Draws `image` through `transform` (source pixel coordinates → output pixel coordinates) into a
    /// `width × height` image; nil when the map cannot be inverted.
    public func warp(_ image: Image, transform: AffineTransform, width: Int, height: Int) -> Image? {
        guard width > 0, height > 0, let inverse = transform.inverted else { return nil }
        let sw = image.width, sh = image.height
        // A step of one output pixel moves this far in the source along each source axis.
        let stepX = (inverse.a * inverse.a + inverse.b * inverse.b).squareRoot()
        let stepY = (inverse.c * inverse.c + inverse.d * inverse.d).squareRoot()
        let nearest = filter == .nearest
        let widenX = max(1, stepX), widenY = max(1, stepY)
        let supportX = filter.support * widenX, supportY = filter.support * widenY
        let steps = Self.tableSteps
        let table = (0...(Int(filter.support.rounded(.up)) * steps + 1)).map { filter.weight(Double($0) / Double(steps)) }
        let tableCount = table.count
        let tapsX = Int(supportX.rounded(.up)) * 2 + 2, tapsY = Int(supportY.rounded(.up)) * 2 + 2
        return image.pixels.withUnsafeBufferPointer { src in
            table.withUnsafeBufferPointer { lut in
                Image(width: width, height: height) { (dst: UnsafeMutableBufferPointer<UInt8>) in
                    var weightsX = [Double](repeating: 0, count: tapsX)
                    var weightsY = [Double](repeating: 0, count: tapsY)
                    func weight(_ distance: Double, _ widen: Double) -> Double {
                        let i = Int((abs(distance) / widen) * Double(steps) + 0.5)
                        return i < tableCount ? lut[i] : 0
                    }
                    for y in 0..<height {
                        for x in 0..<width {
                            let ox = Double(x) + 0.5, oy = Double(y) + 0.5
                            // Source position in pixel-centre coordinates (pixel i is centred at i).
                            let u = inverse.a * ox + inverse.b * oy + inverse.tx - 0.5
                            let v = inverse.c * ox + inverse.d * oy + inverse.ty - 0.5
                            let o = (y * width + x) * 4
                            guard u > -supportX - 1, v > -supportY - 1, u < Double(sw) + supportX,
                                  v < Double(sh) + supportY else {
                                dst[o] = 0; dst[o + 1] = 0; dst[o + 2] = 0; dst[o + 3] = 0
                                continue
                            }
                            var acc = (0.0, 0.0, 0.0, 0.0)
                            if nearest {
                                let ix = Int((u + 0.5).rounded(.down)), iy = Int((v + 0.5).rounded(.down))
                                if ix >= 0, iy >= 0, ix < sw, iy < sh {
                                    let s = (iy * sw + ix) * 4
                                    acc = (Double(src[s]), Double(src[s + 1]), Double(src[s + 2]), Double(src[s + 3]))
                                }
                            } else {
                                let x0 = Int((u - supportX).rounded(.up)), y0 = Int((v - supportY).rounded(.up))
                                let nx = min(tapsX, Int((u + supportX).rounded(.down)) - x0 + 1)
                                let ny = min(tapsY, Int((v + supportY).rounded(.down)) - y0 + 1)
                                var totalX = 0.0, totalY = 0.0
                                for i in 0..<max(0, nx) {
                                    let w = weight(Double(x0 + i) - u, widenX)
                                    weightsX[i] = w
                                    totalX += w
                                }
                                for j in 0..<max(0, ny) {
                                    let w = weight(Double(y0 + j) - v, widenY)
                                    weightsY[j] = w
                                    totalY += w
                                }
                                let norm = totalX * totalY
                                if norm > 1e-12 {
                                    let ix0 = max(0, x0), ix1 = min(sw, x0 + nx)
                                    for j in 0..<max(0, ny) {
                                        let row = y0 + j
                                        guard row >= 0, row < sh, ix0 < ix1 else { continue }
                                        let wy = weightsY[j]
                                        var r = (0.0, 0.0, 0.0, 0.0)
                                        var s = (row * sw + ix0) * 4
                                        for ix in ix0..<ix1 {
                                            let w = weightsX[ix - x0]
                                            r.0 += w * Double(src[s]); r.1 += w * Double(src[s + 1])
                                            r.2 += w * Double(src[s + 2]); r.3 += w * Double(src[s + 3])
                                            s += 4
                                        }
                                        acc.0 += wy * r.0; acc.1 += wy * r.1; acc.2 += wy * r.2; acc.3 += wy * r.3
                                    }
                                    acc = (acc.0 / norm, acc.1 / norm, acc.2 / norm, acc.3 / norm)
                                }
                            }
                            // Negative lobes can overshoot: keep a valid premultiplied pixel.
                            let alpha = min(255, max(0, acc.3.rounded()))
                            dst[o] = UInt8(min(alpha, max(0, acc.0.rounded())))
                            dst[o + 1] = UInt8(min(alpha, max(0, acc.1.rounded())))
                            dst[o + 2] = UInt8(min(alpha, max(0, acc.2.rounded())))
                            dst[o + 3] = UInt8(alpha)
                        }
                    }
                }
            }
        }
    }
}
