/// The resampler's two hot loops on vectors: the same fixed-point arithmetic as the scalar loops
/// (`filterRow`, `filterColumns`), so the same bytes. A pixel times a weight is an 8-bit value times a
/// 16-bit weight; two such products are added in 32 bits before the 32-bit running sum (on x86 one
/// `pmaddwd` per two taps of a pixel's four channels, or per two source rows of four bytes). Integer
/// sums do not depend on their order, so the result equals the scalar loops' exactly, wrapping
/// included. Used when every weight fits in 16 bits (`Coefficients.narrow`), as the weights of every
/// filter do, and not in debug builds (`vectorLoops`); the scalar loops remain for anything else.
extension Resampler {
    /// Two products added: `x[0] * w[0] + x[1] * w[1]`, `x[2] * w[2] + x[3] * w[3]`, … in 32 bits.
    @inline(__always)
    static func pairSums(_ x: SIMD8<UInt8>, _ w: SIMD8<Int16>) -> SIMD4<Int32> {
        let products = SIMD8<Int32>(truncatingIfNeeded: x) &* SIMD8<Int32>(truncatingIfNeeded: w)
        return SIMD4(products[0], products[2], products[4], products[6])
            &+ SIMD4(products[1], products[3], products[5], products[7])
    }

    /// A premultiplied RGBA pixel from its four fixed-point sums: rounded, clamped to 0…255, and
    /// the colour channels kept at or below the alpha (as `clampFixed` and `min` in the scalar loops).
    @inline(__always)
    static func pixel(_ sums: SIMD4<Int32>) -> SIMD4<UInt8> {
        let rounded = (sums &+ SIMD4(repeating: 1 << (precisionBits - 1))) &>> SIMD4(repeating: precisionBits)
        let clamped = rounded.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 255))
        return SIMD4<UInt8>(truncatingIfNeeded: pointwiseMin(clamped, SIMD4(repeating: clamped[3])))
    }

    /// The horizontal pass over one row with 16-bit weights: two taps at a time.
    @inline(__always)
    static func filterRow(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, _ c: Coefficients,
                          narrow wts: UnsafePointer<Int16>) {
        let source = UnsafeRawPointer(src), destination = UnsafeMutableRawPointer(dst)
        c.start.withUnsafeBufferPointer { starts in
            c.count.withUnsafeBufferPointer { counts in
                for x in 0..<starts.count {
                    let n = Int(counts[x]), w = wts + x &* c.taps
                    var p = source + Int(starts[x]) &* 4
                    var sums = SIMD4<Int32>(repeating: 0)
                    var k = 0
                    while k &+ 1 < n {
                        // Two pixels' channels interleaved (r0 r1 g0 g1 …) against (w0 w1 w0 w1 …).
                        let v = p.loadUnaligned(as: SIMD8<UInt8>.self)
                        let pair = SIMD8<UInt8>(v[0], v[4], v[1], v[5], v[2], v[6], v[3], v[7])
                        let w0 = w[k], w1 = w[k &+ 1]
                        sums &+= pairSums(pair, SIMD8(w0, w1, w0, w1, w0, w1, w0, w1))
                        p += 8
                        k &+= 2
                    }
                    if k < n {
                        sums &+= SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self))
                            &* SIMD4(repeating: Int32(w[k]))
                    }
                    destination.storeBytes(of: pixel(sums), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                }
            }
        }
    }

    /// The vertical pass for output row `y` with 16-bit weights: two source rows at a time, summed
    /// into `acc` (`rowBytes` sums), then turned into pixels.
    @inline(__always)
    static func filterColumns(row: (Int) -> UnsafePointer<UInt8>, output y: Int, into dst: UnsafeMutablePointer<UInt8>,
                              rowBytes: Int, _ c: Coefficients, narrow wts: UnsafePointer<Int16>,
                              _ acc: UnsafeMutablePointer<Int32>) {
        let s0 = Int(c.start[y]), n = Int(c.count[y]), w = wts + y &* c.taps
        let sums = UnsafeMutableRawPointer(acc)
        let whole = rowBytes & ~7
        var k = 0
        while k < n {
            // The last row of an odd count is paired with itself at weight 0.
            let a = UnsafeRawPointer(row(s0 &+ k))
            let second = k &+ 1 < n
            let b = second ? UnsafeRawPointer(row(s0 &+ k &+ 1)) : a
            let wa = w[k], wb = second ? w[k &+ 1] : 0
            let weights = SIMD8<Int16>(wa, wb, wa, wb, wa, wb, wa, wb)
            let first = k == 0
            var i = 0
            while i < whole {
                let va = a.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)
                let vb = b.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt8>.self)
                var low = pairSums(SIMD8(va[0], vb[0], va[1], vb[1], va[2], vb[2], va[3], vb[3]), weights)
                var high = pairSums(SIMD8(va[4], vb[4], va[5], vb[5], va[6], vb[6], va[7], vb[7]), weights)
                if !first {
                    low &+= sums.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Int32>.self)
                    high &+= sums.loadUnaligned(fromByteOffset: i &* 4 &+ 16, as: SIMD4<Int32>.self)
                }
                sums.storeBytes(of: low, toByteOffset: i &* 4, as: SIMD4<Int32>.self)
                sums.storeBytes(of: high, toByteOffset: i &* 4 &+ 16, as: SIMD4<Int32>.self)
                i &+= 8
            }
            while i < rowBytes {
                let value = Int32(a.load(fromByteOffset: i, as: UInt8.self)) &* Int32(wa)
                    &+ Int32(b.load(fromByteOffset: i, as: UInt8.self)) &* Int32(wb)
                acc[i] = first ? value : acc[i] &+ value
                i &+= 1
            }
            k &+= 2
        }
        let destination = UnsafeMutableRawPointer(dst)
        var i = 0
        while i < rowBytes {
            destination.storeBytes(of: pixel(sums.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Int32>.self)),
                                   toByteOffset: i, as: SIMD4<UInt8>.self)
            i &+= 4
        }
    }
}
