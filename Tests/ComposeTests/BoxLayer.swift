import SumiKit

/// A vector test layer: a filled rectangle with a border, drawn with exact area coverage at any scale,
/// so its edges are crisp (one partially covered pixel at most) however large it is placed.
struct BoxLayer: LayerContent {
    var size: Size
    var fill: Color
    var border: Color
    var borderWidth: Double = 1

    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        let w = max(1, Int((size.width * scaleX + phase.x).rounded(.up)))
        let h = max(1, Int((size.height * scaleY + phase.y).rounded(.up)))
        let outerX = coverage(count: w, from: phase.x, to: phase.x + size.width * scaleX)
        let outerY = coverage(count: h, from: phase.y, to: phase.y + size.height * scaleY)
        let innerX = coverage(count: w, from: phase.x + borderWidth * scaleX,
                              to: phase.x + (size.width - borderWidth) * scaleX)
        let innerY = coverage(count: h, from: phase.y + borderWidth * scaleY,
                              to: phase.y + (size.height - borderWidth) * scaleY)
        let f = premultiplied(fill), b = premultiplied(border)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let inner = innerX[x] * innerY[y]
                let ring = outerX[x] * outerY[y] - inner
                for c in 0..<4 {
                    let v = f[c] * inner + b[c] * ring
                    pixels[(y * w + x) * 4 + c] = UInt8(min(255, max(0, (v * 255).rounded())))
                }
            }
        }
        return Image(width: w, height: h, pixels: pixels)
    }

    /// The fraction of each pixel `0..<count` covered by the interval `[a, b]`.
    private func coverage(count: Int, from a: Double, to b: Double) -> [Double] {
        (0..<count).map { i in max(0, min(b, Double(i + 1)) - max(a, Double(i))) }
    }

    private func premultiplied(_ c: Color) -> [Double] {
        let a = Double(c.alpha) / 255
        return [Double(c.red) / 255 * a, Double(c.green) / 255 * a, Double(c.blue) / 255 * a, a]
    }
}
