/// What a stage built on `GaussianRows` makes of each blurred pixel: two premultiplied RGBA pixels
/// at a time, from their blurred values (floats, 0…255) and, when `needsSource`, the source pixels
/// at the same place. The stage's whole pixel arithmetic after the convolution lives in its writer.
protocol BlurredRowWriter: Sendable {
    /// Whether `write` reads the source pixels (else it is given zeros).
    var needsSource: Bool { get }
    /// The output bytes of two pixels (r0 g0 b0 a0 r1 g1 b1 a1).
    func write(blurred: SIMD8<Float>, source: SIMD8<UInt8>) -> SIMD8<UInt8>
}

/// Conversions between bytes and floats without the standard library's generic vector conversions
/// (which convert lane by lane through `_convert(from:)`, a tenth of the speed): a float of
/// 2²³ + v holds the integer v in its mantissa's low bits, so a bit cast and an integer add or
/// subtract convert, on whole vectors.
enum FloatBits {
    /// 1.5 · 2²³: added to a float in 0 ..< 2²², rounds it to an integer (ties to even) held in
    /// the low mantissa bits, whose pattern is then `0x4B40_0000` + that integer.
    static let rounder: Float = 12_582_912
    static let rounderBits: UInt32 = 0x4B40_0000
    /// 2²³, whose pattern is `0x4B00_0000`.
    static let integer: Float = 8_388_608
    static let integerBits: UInt32 = 0x4B00_0000
}

extension SIMD8 where Scalar == Float {
    /// Rounded to the nearest integers (ties to even), for values within ±2²².
    @inline(__always)
    var integers: SIMD8<Int32> {
        unsafeBitCast(self + FloatBits.rounder, to: SIMD8<Int32>.self) &- Int32(bitPattern: FloatBits.rounderBits)
    }

    /// Rounded to the nearest integer (ties to even) and clamped to 0…255.
    @inline(__always)
    var bytes: SIMD8<UInt8> { SIMD8<UInt8>(truncatingIfNeeded: integers.clamped(0, 255)) }
}

extension SIMD8 where Scalar == Int32 {
    /// Integers within ±2²² as floats.
    @inline(__always)
    var floats: SIMD8<Float> {
        unsafeBitCast(self &+ Int32(bitPattern: FloatBits.rounderBits), to: SIMD8<Float>.self) - FloatBits.rounder
    }

    /// Each pixel's alpha (lanes 3 and 7) in all four of its lanes.
    @inline(__always)
    var alphas: SIMD8<Int32> { SIMD8(self[3], self[3], self[3], self[3], self[7], self[7], self[7], self[7]) }
}

extension SIMD where Scalar == Int32 {
    /// Lane-wise minimum by arithmetic (the standard library's `pointwiseMin` is not inlined into
    /// these loops): `b + ((a − b) & sign(a − b))`, for differences that do not overflow.
    @inline(__always)
    func minimum(_ other: Self) -> Self {
        let difference = self &- other
        return other &+ (difference & (difference &>> 31))
    }

    @inline(__always)
    func maximum(_ other: Self) -> Self {
        let difference = self &- other
        return self &- (difference & (difference &>> 31))
    }

    @inline(__always)
    func clamped(_ low: Int32, _ high: Int32) -> Self { maximum(Self(repeating: low)).minimum(Self(repeating: high)) }

    /// Lane-wise magnitude.
    @inline(__always)
    var magnitude: Self {
        let sign = self &>> 31
        return (self ^ sign) &- sign
    }
}

extension SIMD8 where Scalar == UInt8 {
    /// The bytes as floats.
    @inline(__always)
    var floats: SIMD8<Float> {
        unsafeBitCast(SIMD8<UInt32>(truncatingIfNeeded: self) | FloatBits.integerBits, to: SIMD8<Float>.self) - FloatBits.integer
    }
}

extension SIMD4 where Scalar == Float {
    /// Rounded to the nearest integers (ties to even), for values within ±2²².
    @inline(__always)
    var integers: SIMD4<Int32> {
        unsafeBitCast(self + FloatBits.rounder, to: SIMD4<Int32>.self) &- Int32(bitPattern: FloatBits.rounderBits)
    }
}

extension SIMD4 where Scalar == UInt8 {
    /// The bytes as floats.
    @inline(__always)
    var floats: SIMD4<Float> {
        unsafeBitCast(SIMD4<UInt32>(truncatingIfNeeded: self) | FloatBits.integerBits, to: SIMD4<Float>.self) - FloatBits.integer
    }
}
