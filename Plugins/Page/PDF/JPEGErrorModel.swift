#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The error a baseline JPEG of libjpeg's standard tables (ITU T.81 Annex K, scaled by quality as
/// libjpeg does) leaves in a 4:4:4 image, from the quantisation steps alone.
///
/// The DCT is orthonormal, so a block's squared pixel error equals the squared error of its
/// quantised coefficients; each coefficient is rounded to its step `q`, an error spread evenly over
/// ±q/2 when the coefficients are busy (fine grain and texture: mean square q²/12), and smaller
/// for the many coefficients that quantise to zero in smoother content. Y, Cb and Cr errors (and
/// the rounding to 8 bits on the way in and out, 1/12 each) reach R, G and B through the YCbCr
/// transform's weights. On the grainy photo blocks of the photo-rich bench page the estimate at
/// quality 98 is 43.3 dB and the strips measure 43.1 to 47 dB: an estimate, not a bound, so it is
/// trusted only `margin` above a floor.
enum JPEGErrorModel {
    /// dB the estimate must clear a floor by for the strip not to be measured.
    static let margin = 2.0
    /// A strip measured this far above its floor at its first quality is tried `stepDown`
    /// qualities lower (about half a decibel each near 90).
    static let stepDownMargin = 1.6
    static let stepDown = 3

    private static let luma: [Int] = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
                                      14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
                                      18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
                                      49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]
    private static let chroma: [Int] = [17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
                                        24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99]
                                       + [Int](repeating: 99, count: 32)

    /// The lowest quality whose estimate reaches `psnr` (100 when none does).
    static func lowestQuality(reaching target: Double) -> Int {
        (1...100).first { psnr(quality: $0) >= target } ?? 100
    }

    /// The estimated PSNR over RGB (dB) at `quality` (1–100), 4:4:4.
    static func psnr(quality: Int) -> Double {
        let q = min(100, max(1, quality))
        let scale = q < 50 ? 5000 / q : 200 - 2 * q
        func meanSquareError(_ table: [Int]) -> Double {
            let sum = table.reduce(0.0) { total, base in
                let step = Double(min(255, max(1, (base * scale + 50) / 100)))
                return total + step * step
            }
            return sum / Double(table.count) / 12 + 1.0 / 12
        }
        let y = meanSquareError(luma), c = meanSquareError(chroma)
        let r = y + 1.402 * 1.402 * c
        let g = y + (0.344136 * 0.344136 + 0.714136 * 0.714136) * c
        let b = y + 1.772 * 1.772 * c
        let mse = (r + g + b) / 3 + 1.0 / 12
        return 10 * log10(255 * 255 / mse)
    }
}
