import SumiKit

/// Per-row summaries of one capture, used to find fixed bars and the overlap between captures.
///
/// A few columns at each side are left out of every summary, so a scrollbar drawn over the content's
/// edge does not make otherwise identical rows differ.
struct CaptureProfile: Sendable {
    /// Bands across the inner columns in a row signature.
    static let bands = 16

    let width: Int
    let height: Int
    /// First and one-past-last column that the summaries look at.
    let innerStart: Int
    let innerEnd: Int
    /// A 64-bit hash of each row's inner pixels.
    let rowHashes: [UInt64]

    init(_ image: Image) {
        width = image.width
        height = image.height
        let margin = CaptureProfile.margin(forWidth: image.width)
        innerStart = margin
        innerEnd = image.width - margin
        let start = margin * 4, end = (image.width - margin) * 4, stride = image.stride, rows = image.height
        rowHashes = image.pixels.withUnsafeBytes { raw in
            (0..<rows).map { y in CaptureProfile.hash(raw, from: y * stride + start, to: y * stride + end) }
        }
    }

    /// Columns ignored at each side: about 3% of the width, at most an eighth.
    static func margin(forWidth width: Int) -> Int {
        guard width >= 16 else { return 0 }
        return min(width / 8, max(2, width * 3 / 100))
    }

    /// Row signatures for noisy captures: per row, the mean of R+G+B over each of `bands` bands of the
    /// inner columns (`height * bands` values).
    func signatures(of image: Image) -> [Float] {
        let bands = CaptureProfile.bands
        let inner = innerEnd - innerStart
        var bandOf = [Int](repeating: 0, count: inner)
        var counts = [Float](repeating: 0, count: bands)
        for i in 0..<inner {
            let b = min(bands - 1, i * bands / max(1, inner))
            bandOf[i] = b
            counts[b] += 3
        }
        var result = [Float](repeating: 0, count: height * bands)
        let stride = image.stride, start = innerStart
        image.pixels.withUnsafeBufferPointer { px in
            bandOf.withUnsafeBufferPointer { bandOf in
                var sums = [UInt32](repeating: 0, count: bands)
                for y in 0..<height {
                    for b in 0..<bands { sums[b] = 0 }
                    var p = y * stride + start * 4
                    for i in 0..<inner {
                        sums[bandOf[i]] &+= UInt32(px[p]) &+ UInt32(px[p + 1]) &+ UInt32(px[p + 2])
                        p += 4
                    }
                    for b in 0..<bands where counts[b] > 0 {
                        result[y * bands + b] = Float(sums[b]) / counts[b]
                    }
                }
            }
        }
        return result
    }

    /// Mean absolute difference per channel (R, G, B) between a row of `a` and a row of `b`, over
    /// the inner columns.
    static func rowDifference(_ a: Image, row ya: Int, _ b: Image, row yb: Int, columns: Range<Int>) -> Double {
        rowDifference(a.pixels, at: ya * a.stride, b.pixels, at: yb * b.stride, columns: columns)
    }

    /// The same between the rows starting at byte `rowA` of `a` and `rowB` of `b`.
    static func rowDifference(_ a: PixelBuffer, at rowA: Int, _ b: PixelBuffer, at rowB: Int, columns: Range<Int>) -> Double {
        guard !columns.isEmpty else { return 0 }
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                var total = 0
                var ia = rowA + columns.lowerBound * 4
                var ib = rowB + columns.lowerBound * 4
                for _ in columns {
                    total &+= abs(Int(pa[ia]) - Int(pb[ib])) &+ abs(Int(pa[ia + 1]) - Int(pb[ib + 1]))
                        &+ abs(Int(pa[ia + 2]) - Int(pb[ib + 2]))
                    ia += 4
                    ib += 4
                }
                return Double(total) / Double(columns.count * 3)
            }
        }
    }

    private static func hash(_ raw: UnsafeRawBufferPointer, from start: Int, to end: Int) -> UInt64 {
        // Four independent lanes over 32 bytes at a time (one chain of multiplies would wait on
        // itself), folded together at the end.
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: end - start),
                                                       0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B)
        func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
            let m = (h ^ v) &* 0xBF58_476D_1CE4_E5B9
            return m ^ (m >> 31)
        }
        var i = start
        while i + 32 <= end {
            lanes.0 = mix(lanes.0, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            lanes.1 = mix(lanes.1, raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            lanes.2 = mix(lanes.2, raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            lanes.3 = mix(lanes.3, raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
        var h = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
        while i + 8 <= end {
            h = mix(h, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        while i < end {
            h = (h ^ UInt64(raw[i])) &* 0x94D0_49BB_1331_11EB
            i += 1
        }
        h ^= h >> 29
        return h
    }
}
