/// PNG row filters (RFC 2083 §6), as PDF's `/Predictor 15` expects them: every row starts with its
/// filter type, and the filter is chosen per row by the libpng heuristic (the smallest sum of the
/// filtered bytes read as signed values), which suits both photos and flat screenshots.
struct PNGPredictor {
    /// Bytes per pixel (3 for RGB, 1 for grey or alpha).
    let bytesPerPixel: Int
    /// Bytes per row, without the filter byte.
    let rowLength: Int
    private var candidates: [[UInt8]]

    init(bytesPerPixel: Int, rowLength: Int) {
        self.bytesPerPixel = bytesPerPixel
        self.rowLength = rowLength
        candidates = Array(repeating: [UInt8](repeating: 0, count: rowLength), count: 5)
    }

    /// Filters `row` (whose previous row is `previous`, zeros for the first) into `out`, which gets
    /// `rowLength + 1` bytes starting with the filter type.
    mutating func filter(_ row: UnsafeBufferPointer<UInt8>, previous: UnsafeBufferPointer<UInt8>,
                         into out: UnsafeMutableBufferPointer<UInt8>) {
        let n = rowLength, bpp = bytesPerPixel
        var best = 0
        var bestSum = Int.max
        // Up first: on flat screenshots it is often exactly zero, and then nothing else is tried.
        for type in [2, 1, 4, 3, 0] where bestSum > 0 {
            let sum = candidates[type].withUnsafeMutableBufferPointer { c -> Int in
                var sum = 0
                for i in 0..<n {
                    let x = row[i], up = previous[i]
                    let left: UInt8 = i >= bpp ? row[i - bpp] : 0
                    let v: UInt8
                    switch type {
                    case 0: v = x
                    case 1: v = x &- left
                    case 2: v = x &- up
                    case 3: v = x &- UInt8((UInt16(left) + UInt16(up)) >> 1)
                    default:
                        let corner: UInt8 = i >= bpp ? previous[i - bpp] : 0
                        v = x &- PNGPredictor.paeth(left, up, corner)
                    }
                    c[i] = v
                    sum += v < 128 ? Int(v) : 256 - Int(v)
                    if sum >= bestSum { break }
                }
                return sum
            }
            if sum < bestSum {
                bestSum = sum
                best = type
            }
        }
        out[0] = UInt8(best)
        candidates[best].withUnsafeBufferPointer { c in
            for i in 0..<n { out[i + 1] = c[i] }
        }
    }

    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
