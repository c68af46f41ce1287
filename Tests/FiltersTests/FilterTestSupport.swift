#if canImport(Glibc)
import Glibc
#endif
import SumiKit
@testable import SumiFilters

/// References computed here, plainly (doubles, one pixel at a time), for the stages' vector code.
enum FilterReference {
    /// A Gaussian blur of standard deviation `sigma` with the edges extended, in doubles, before
    /// rounding: every channel of premultiplied RGBA the same way.
    static func blur(_ image: Image, sigma: Double) -> [Double] {
        let kernel = GaussianKernel(sigma: sigma)
        let r = kernel.radius, w = image.width, h = image.height
        let weights = (-r...r).map { x in exp(-Double(x * x) / (2 * sigma * sigma)) }
        let total = weights.reduce(0, +)
        var across = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in 0..<w { for c in 0..<4 {
            var sum = 0.0
            for k in -r...r { sum += weights[k + r] * Double(image.pixels[(y * w + min(w - 1, max(0, x + k))) * 4 + c]) }
            across[(y * w + x) * 4 + c] = sum / total
        } } }
        var out = across
        for y in 0..<h { for x in 0..<w { for c in 0..<4 {
            var sum = 0.0
            for k in -r...r { sum += weights[k + r] * across[(min(h - 1, max(0, y + k)) * w + x) * 4 + c] }
            out[(y * w + x) * 4 + c] = sum / total
        } } }
        return out
    }

    /// The largest difference between `pixels` and `reference`.
    static func largestDifference(_ pixels: [UInt8], _ reference: [Double]) -> Double {
        zip(pixels, reference).map { abs(Double($0) - $1) }.max() ?? 0
    }

    /// Whether every pixel's colour is at or below its alpha (valid premultiplied RGBA).
    static func isPremultiplied(_ image: Image) -> Bool {
        stride(from: 0, to: image.pixels.count, by: 4).allSatisfy { i in
            (0..<3).allSatisfy { image.pixels[i + $0] <= image.pixels[i + 3] }
        }
    }

    /// An opaque image of smooth gradients with some edges, `width × height`.
    static func opaque(_ width: Int, _ height: Int) -> Image {
        Image(width: width, height: height) { buffer in
            for y in 0..<height { for x in 0..<width {
                let i = (y * width + x) * 4
                buffer[i] = UInt8((x * 255) / max(1, width - 1))
                buffer[i + 1] = UInt8((y * 255) / max(1, height - 1))
                buffer[i + 2] = (x / 7 + y / 5) % 2 == 0 ? 40 : 220
                buffer[i + 3] = 255
            } }
        }
    }
}
