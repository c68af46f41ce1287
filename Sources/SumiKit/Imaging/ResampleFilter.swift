/// A reconstruction filter for resampling.
public enum ResampleFilter: String, Sendable, CaseIterable, ParameterChoice {
    case lanczos3, bicubic, bilinear, nearest, box

    /// How far the filter reaches, in source pixels at scale 1.
    var support: Double {
        switch self {
        case .lanczos3: 3
        case .bicubic: 2
        case .bilinear: 1
        case .box, .nearest: 0.5
        }
    }

    /// The filter's weight at distance `x`.
    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .lanczos3:
            if x < 1e-9 { return 1 }
            if x >= 3 { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        case .bicubic:
            // Catmull-Rom style cubic with a = -0.5 (as Pillow and libvips use).
            let a = -0.5
            if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
            if x < 2 { return (((x - 5) * x + 8) * x - 4) * a }
            return 0
        case .bilinear:
            return x < 1 ? 1 - x : 0
        case .box, .nearest:
            return x <= 0.5 ? 1 : 0
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
