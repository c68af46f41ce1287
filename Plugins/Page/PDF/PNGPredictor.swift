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

    /// The order filters are tried in: Up first, as on flat screenshots it is often exactly zero, and
    /// then nothing else needs trying.
    private static let order = [2, 1, 4, 3, 0]

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
        var best = 0
        var bestSum = Int.max
        scratch.withUnsafeMutableBufferPointer { all in
            for type in PNGPredictor.order where bestSum > 0 {
                let c = UnsafeMutableBufferPointer(rebasing: all[(type * n)..<((type + 1) * n)])
                let sum = PNGPredictor.apply(type, row, previous, c, n: n, bpp: bpp, stopAt: bestSum)
                if sum < bestSum {
                    bestSum = sum
                    best = type
                }
            }
            out[0] = UInt8(best)
            _ = UnsafeMutableBufferPointer(rebasing: out[1...n])
                .update(fromContentsOf: UnsafeBufferPointer(rebasing: all[(best * n)..<((best + 1) * n)]))
        }
    }

    /// Applies one filter into `c`; returns the heuristic sum, or something ≥ `stopAt` as soon as
    /// it can no longer win.
    @inline(__always)
    private static func apply(_ type: Int, _ row: UnsafeBufferPointer<UInt8>, _ up: UnsafeBufferPointer<UInt8>,
                              _ c: UnsafeMutableBufferPointer<UInt8>, n: Int, bpp: Int, stopAt: Int) -> Int {
        @inline(__always) func cost(_ v: UInt8) -> Int { Int(Int8(bitPattern: v).magnitude) }
        var sum = 0
        let head = min(bpp, n)
        switch type {
        case 0:
            for i in 0..<n { let v = row[i]; c[i] = v; sum &+= cost(v) }
        case 1:
            for i in 0..<head { let v = row[i]; c[i] = v; sum &+= cost(v) }
            var i = head
            while i < n {
                let v = row[i] &- row[i - bpp]; c[i] = v; sum &+= cost(v)
                i += 1
                if i & 255 == 0, sum >= stopAt { return sum }
            }
        case 2:
            var i = 0
            while i < n {
                let v = row[i] &- up[i]; c[i] = v; sum &+= cost(v)
                i += 1
                if i & 255 == 0, sum >= stopAt { return sum }
            }
        case 3:
            for i in 0..<head { let v = row[i] &- (up[i] >> 1); c[i] = v; sum &+= cost(v) }
            var i = head
            while i < n {
                let v = row[i] &- UInt8((UInt16(row[i - bpp]) &+ UInt16(up[i])) >> 1); c[i] = v; sum &+= cost(v)
                i += 1
                if i & 255 == 0, sum >= stopAt { return sum }
            }
        default:
            for i in 0..<head { let v = row[i] &- up[i]; c[i] = v; sum &+= cost(v) }
            var i = head
            while i < n {
                let v = row[i] &- paeth(row[i - bpp], up[i], up[i - bpp]); c[i] = v; sum &+= cost(v)
                i += 1
                if i & 255 == 0, sum >= stopAt { return sum }
            }
        }
        return sum
    }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
