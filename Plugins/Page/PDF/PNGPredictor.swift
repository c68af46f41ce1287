/// PNG row filters (RFC 2083 §6), as PDF's `/Predictor 15` expects them: every row starts with its
/// filter type, and the filter is chosen per row by the libpng heuristic (the smallest sum of the
/// filtered bytes read as signed values), which suits both photos and flat screenshots.
///
/// Palette indices (`unordered`) have no order for that sum to weigh: for them the filter is None
/// or Up, whichever leaves fewer runs of equal bytes (what deflate's matches feed on; identical rows
/// become zeros under Up).
///
/// The filters work on 16 bytes at a time (SIMD); only the first pixel and a row's last few bytes
/// are done one by one.
struct PNGPredictor {
    /// Bytes per pixel (3 for RGB, 1 for grey or alpha).
    let bytesPerPixel: Int
    /// Bytes per row, without the filter byte.
    let rowLength: Int
    /// Whether the bytes are palette indices rather than samples.
    let unordered: Bool
    /// The filtered row for each filter type (0 none, 1 sub, 2 up, 3 average, 4 Paeth), one after
    /// the other.
    private var scratch: [UInt8]

    private typealias Bytes = SIMD16<UInt8>
    private typealias Wide = SIMD16<Int16>

    init(bytesPerPixel: Int, rowLength: Int, unordered: Bool = false) {
        self.bytesPerPixel = bytesPerPixel
        self.rowLength = rowLength
        self.unordered = unordered
        scratch = [UInt8](repeating: 0, count: max(1, rowLength * 5))
    }

    /// Filters `row` (whose previous row is `previous`, zeros for the first) into `out`, which gets
    /// `rowLength + 1` bytes starting with the filter type.
    mutating func filter(_ row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                         into out: UnsafeMutableBufferPointer<UInt8>) {
        let n = rowLength, bpp = bytesPerPixel
        guard n > 0, let rowStart = row.baseAddress, let upStart = previous.baseAddress else {
            out[0] = 0
            return
        }
        if unordered {
            filterIndices(row, previous: previous, into: out)
            return
        }
        let x = UnsafeRawPointer(rowStart), up = UnsafeRawPointer(upStart)
        var best = 2
        scratch.withUnsafeMutableBytes { all in
            // Up first: on flat screenshots it is often exactly zero, and then nothing else is needed.
            var upSums = SIMD16<UInt32>()
            var i = 0
            while i + 16 <= n {
                let v = x.loadUnaligned(fromByteOffset: i, as: Bytes.self) &- up.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                all.storeBytes(of: v, toByteOffset: 2 * n + i, as: Bytes.self)
                upSums &+= PNGPredictor.costs(v)
                i += 16
            }
            var upSum = Int(upSums.wrappedSum())
            while i < n {
                let v = row[i] &- previous[i]
                all[2 * n + i] = v
                upSum &+= PNGPredictor.cost(v)
                i += 1
            }
            guard upSum > 0 else { return }

            var sums = (0, 0, 0, 0)   // none, sub, average, Paeth
            func scalar(_ i: Int) {
                let xi = row[i], a: UInt8 = i >= bpp ? row[i - bpp] : 0, b = previous[i]
                let c: UInt8 = i >= bpp ? previous[i - bpp] : 0
                let sub = xi &- a, avg = xi &- UInt8((UInt16(a) + UInt16(b)) >> 1), pae = xi &- PNGPredictor.paeth(a, b, c)
                all[i] = xi; all[n + i] = sub; all[3 * n + i] = avg; all[4 * n + i] = pae
                sums.0 &+= PNGPredictor.cost(xi); sums.1 &+= PNGPredictor.cost(sub)
                sums.2 &+= PNGPredictor.cost(avg); sums.3 &+= PNGPredictor.cost(pae)
            }
            i = 0
            while i < min(bpp, n) { scalar(i); i += 1 }
            var none = SIMD16<UInt32>(), sub = none, avg = none, pae = none
            while i + 16 <= n {
                let xv = x.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                let a = x.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self)
                let b = up.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                let c = up.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self)
                let s = xv &- a
                let av = xv &- ((a & b) &+ ((a ^ b) &>> 1))
                let pv = xv &- PNGPredictor.paeth(a, b, c)
                all.storeBytes(of: xv, toByteOffset: i, as: Bytes.self)
                all.storeBytes(of: s, toByteOffset: n + i, as: Bytes.self)
                all.storeBytes(of: av, toByteOffset: 3 * n + i, as: Bytes.self)
                all.storeBytes(of: pv, toByteOffset: 4 * n + i, as: Bytes.self)
                none &+= PNGPredictor.costs(xv); sub &+= PNGPredictor.costs(s)
                avg &+= PNGPredictor.costs(av); pae &+= PNGPredictor.costs(pv)
                i += 16
            }
            sums.0 &+= Int(none.wrappedSum()); sums.1 &+= Int(sub.wrappedSum())
            sums.2 &+= Int(avg.wrappedSum()); sums.3 &+= Int(pae.wrappedSum())
            while i < n { scalar(i); i += 1 }

            var bestSum = upSum
            for (type, sum) in [(1, sums.1), (4, sums.3), (3, sums.2), (0, sums.0)] where sum < bestSum {
                bestSum = sum
                best = type
            }
        }
        out[0] = UInt8(best)
        scratch.withUnsafeBufferPointer { all in
            _ = UnsafeMutableBufferPointer(rebasing: out[1...n])
                .update(fromContentsOf: UnsafeBufferPointer(rebasing: all[(best * n)..<((best + 1) * n)]))
        }
    }

    /// None or Up for palette indices, by the runs of equal bytes each leaves (ties go to None).
    private func filterIndices(_ row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                               into out: UnsafeMutableBufferPointer<UInt8>) {
        let n = rowLength
        var noneRuns = 0, upRuns = 0
        var lastUp = row[0] &- previous[0]
        for i in 1..<max(1, n) {
            if row[i] != row[i - 1] { noneRuns += 1 }
            let up = row[i] &- previous[i]
            if up != lastUp { upRuns += 1 }
            lastUp = up
        }
        let useUp = upRuns < noneRuns
        out[0] = useUp ? 2 : 0
        for i in 0..<n { out[i + 1] = useUp ? row[i] &- previous[i] : row[i] }
    }

    /// A filtered byte's weight in the heuristic: its magnitude read as a signed value.
    @inline(__always)
    static func cost(_ v: UInt8) -> Int { Int(min(v, 0 &- v)) }

    @inline(__always)
    private static func costs(_ v: Bytes) -> SIMD16<UInt32> {
        SIMD16<UInt32>(truncatingIfNeeded: pointwiseMin(v, Bytes() &- v))
    }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int16(a), ib = Int16(b), ic = Int16(c)
        let pa = abs(ib &- ic), pb = abs(ia &- ic), pc = abs(ia &+ ib &- 2 &* ic)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    @inline(__always)
    private static func paeth(_ a: Bytes, _ b: Bytes, _ c: Bytes) -> Bytes {
        let wa = Wide(truncatingIfNeeded: a), wb = Wide(truncatingIfNeeded: b), wc = Wide(truncatingIfNeeded: c)
        let pa = magnitude(wb &- wc), pb = magnitude(wa &- wc), pc = magnitude(wa &+ wb &- wc &- wc)
        let useA = (pa .<= pb) .& (pa .<= pc)
        let useB = (pb .<= pc)
        let chosen = wc.replacing(with: wb, where: useB).replacing(with: wa, where: useA)
        return Bytes(truncatingIfNeeded: chosen)
    }

    @inline(__always)
    private static func magnitude(_ v: Wide) -> Wide {
        v.replacing(with: Wide() &- v, where: v .< Wide())
    }
}
