/// What a stage built on `GaussianRows` makes of each blurred pixel: two premultiplied RGBA pixels
/// at a time, from their blurred values (floats, 0…255) and, when `needsSource`, the source pixels
/// at the same place. The stage's whole pixel arithmetic after the convolution lives in its writer.
protocol BlurredRowWriter: Sendable {
    /// Whether `write` reads the source pixels (else it is given zeros).
    var needsSource: Bool { get }
    /// The output bytes of two pixels (r0 g0 b0 a0 r1 g1 b1 a1).
    func write(blurred: SIMD8<Float>, source: SIMD8<UInt8>) -> SIMD8<UInt8>
}

extension SIMD8 where Scalar == Float {
    /// Rounded to the nearest integer (halves up: every value is at least 0) and clamped to 0…255.
    @inline(__always)
    var bytes: SIMD8<UInt8> {
        let clamped = (self + 0.5).clamped(lowerBound: SIMD8(repeating: 0), upperBound: SIMD8(repeating: 255.99))
        return SIMD8<UInt8>(truncatingIfNeeded: SIMD8<Int32>(clamped, rounding: .towardZero))
    }

    /// Each pixel's alpha (lanes 3 and 7) in all four of its lanes.
    @inline(__always)
    var alphas: SIMD8<Float> { SIMD8(self[3], self[3], self[3], self[3], self[7], self[7], self[7], self[7]) }
}

extension SIMD8 where Scalar == UInt8 {
    /// The bytes as floats.
    @inline(__always)
    var floats: SIMD8<Float> { SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: self)) }
}
