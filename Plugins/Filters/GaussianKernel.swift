#if canImport(Glibc)
import Glibc
#endif

/// A sampled Gaussian of standard deviation `sigma`: `2 * radius + 1` weights, symmetric, summing to
/// 1, cut at `radius` = ⌈3σ⌉ taps each side (99.7 % of the curve's area; what is cut is spread over
/// the rest by the normalisation). `blur` and `sharpen` run it along rows, then along columns.
struct GaussianKernel: Sendable {
    /// The largest sigma a stage accepts: the kernel's ring then holds 2·⌈3·50⌉ + 32 = 332 rows of
    /// floats (for an image 6000 wide, 32 MB), whatever the image's height.
    static let maxSigma = 50.0

    let sigma: Double
    let radius: Int
    /// `weights[radius]` is the centre's.
    let weights: [Float]

    init(sigma: Double) {
        self.sigma = sigma
        radius = max(1, Int((3 * sigma).rounded(.up)))
        let twoVariance = 2 * sigma * sigma
        let curve = (-radius...radius).map { x in exp(-Double(x * x) / twoVariance) }
        let total = curve.reduce(0, +)
        weights = curve.map { Float($0 / total) }
    }

    var taps: Int { 2 * radius + 1 }
}
