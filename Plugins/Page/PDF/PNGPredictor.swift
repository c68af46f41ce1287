/// PNG row filters (RFC 2083 §6), as PDF's `/Predictor 15` expects them: every row starts with its
/// filter type, and the filter is chosen per row by the libpng heuristic (the smallest sum of the
/// filtered bytes read as signed values), which suits both photos and flat screenshots.
struct PNGPredictor {
    /// Bytes per pixel (3 for RGB, 1 for grey or alpha).
    let bytesPerPixel: Int
    /// Bytes per row, without the filter byte.
    let rowLength: Int
    /// The filtered row for each filter type, one after the other.
    private var scratch: [UInt8]

    init(bytesPerPixel: Int, rowLength: Int) {
        self.bytesPerPixel = bytesPerPixel
        self.rowLength = rowLength
        scratch = [UInt8](repeating: 0, count: rowLength * 5)
    }

    /// Filters `row` (whose previous row is `previous`, zeros for the first) into `out`, which gets
    /// `rowLength + 1` bytes starting with the filter type.
    mutating func filter(_ row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                         into out: UnsafeMutableBufferPointer<UInt8>) {
        let n = rowLength, bpp = bytesPerPixel
        var best = 2
        scratch.withUnsafeMutableBufferPointer { all in
            // Up first: on flat screenshots it is often exactly zero, and then nothing else is needed.
            var upSum = 0
            for i in 0..<n {
                let v = row[i] &- previous[i]
                all[2 * n + i] = v
                upSum &+= PNGPredictor.cost(v)
            }
            if upSum > 0 {
                var sums = (0, 0, 0, 0)   // none, sub, average, paeth
                let head = min(bpp, n)
                for i in 0..<head {
                    let x = row[i], b = previous[i]
                    let none = x, sub = x, avg = x &- (b >> 1), pae = x &- b
                    all[i] = none; all[n + i] = sub; all[3 * n + i] = avg; all[4 * n + i] = pae
                    sums.0 &+= PNGPredictor.cost(none); sums.1 &+= PNGPredictor.cost(sub)
                    sums.2 &+= PNGPredictor.cost(avg); sums.3 &+= PNGPredictor.cost(pae)
                }
                for i in head..<max(head, n) {
                    let x = row[i], a = row[i - bpp], b = previous[i], c = previous[i - bpp]
                    let none = x, sub = x &- a
                    let avg = x &- UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b)) >> 1)
                    let pae = x &- PNGPredictor.paeth(a, b, c)
                    all[i] = none; all[n + i] = sub; all[3 * n + i] = avg; all[4 * n + i] = pae
                    sums.0 &+= PNGPredictor.cost(none); sums.1 &+= PNGPredictor.cost(sub)
                    sums.2 &+= PNGPredictor.cost(avg); sums.3 &+= PNGPredictor.cost(pae)
                }
                var bestSum = upSum
                for (type, sum) in [(1, sums.1), (4, sums.3), (3, sums.2), (0, sums.0)] where sum < bestSum {
                    bestSum = sum
                    best = type
                }
            }
            out[0] = UInt8(best)
            _ = UnsafeMutableBufferPointer(rebasing: out[1...n])
                .update(fromContentsOf: UnsafeBufferPointer(rebasing: all[(best * n)..<((best + 1) * n)]))
        }
    }

    /// A filtered byte's weight in the heuristic: its magnitude read as a signed value.
    @inline(__always)
    static func cost(_ v: UInt8) -> Int { Int(Int8(bitPattern: v).magnitude) }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int16(a), ib = Int16(b), ic = Int16(c)
        let pa = abs(ib &- ic), pb = abs(ia &- ic), pc = abs(ia &+ ib &- 2 &* ic)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }
}
