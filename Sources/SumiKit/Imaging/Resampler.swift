/// Resizes premultiplied RGBA images with a separable filter (horizontal pass, then vertical),
/// using 14-bit fixed-point weights as Pillow does.
public struct Resampler: Sendable {
    public let filter: ResampleFilter
    /// Whether the vector loops (`Resampler+Vector`) run where the weights allow; the scalar loops
    /// give the same bytes (`ResamplerVectorTests` compares them).
    var vectorLoops = true

    public init(filter: ResampleFilter) { self.filter = filter }

    /// The contribution of source pixels to each destination pixel along one axis.
    struct Coefficients {
        var start: [Int32]      // first source index per destination index
        var count: [Int32]      // number of taps per destination index
        var weights: [Int32]    // `taps` weights per destination index, fixed point
        var taps: Int
        /// The same weights in 16 bits, for the vector loops; nil if one does not fit.
        var narrow: [Int16]?

        init(start: [Int32], count: [Int32], weights: [Int32], taps: Int, vector: Bool) {
            self.start = start
            self.count = count
            self.weights = weights
            self.taps = taps
            narrow = vector && weights.allSatisfy { Int32(Int16.min) <= $0 && $0 <= Int32(Int16.max) }
                ? weights.map { Int16(truncatingIfNeeded: $0) } : nil
        }
    }

    static let precisionBits: Int32 = 14

    static func coefficients(source: Int, destination: Int, filter: ResampleFilter, vector: Bool) -> Coefficients {
        let scale = Double(source) / Double(destination)
        if filter == .nearest {
            var start = [Int32](repeating: 0, count: destination)
            for i in 0..<destination {
                start[i] = Int32(min(source - 1, Int((Double(i) + 0.5) * scale)))
            }
            return Coefficients(start: start, count: [Int32](repeating: 1, count: destination),
                                weights: [Int32](repeating: 1 << precisionBits, count: destination), taps: 1,
                                vector: vector)
        }
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        let taps = Int(support.rounded(.up)) * 2 + 1
        var start = [Int32](repeating: 0, count: destination)
        var count = [Int32](repeating: 0, count: destination)
        var weights = [Int32](repeating: 0, count: destination * taps)
        var row = [Double](repeating: 0, count: taps)
        for i in 0..<destination {
            let center = (Double(i) + 0.5) * scale
            let lo = max(0, Int((center - support + 0.5).rounded(.down)))
            let hi = min(source, Int((center + support + 0.5).rounded(.down)))
            var n = 0
            var total = 0.0
            for j in lo..<max(lo, hi) where n < taps {
                let w = filter.weight((Double(j) - center + 0.5) / filterScale)
                row[n] = w
                total += w
                n += 1
            }
            if total == 0 { row[0] = 1; total = 1; n = max(n, 1) }
            start[i] = Int32(min(lo, source - 1))
            count[i] = Int32(n)
            // Round the running sum, not each weight: the fixed-point weights then add up to exactly
            // 1 << precisionBits however many taps there are (rounding a thousand small weights one
            // by one made a 1000:1 reduction of an opaque image 2% transparent).
            var cumulative = 0.0
            var previous: Int32 = 0
            for k in 0..<n {
                cumulative += row[k] / total
                let next = Int32((cumulative * Double(1 << precisionBits)).rounded())
                weights[i * taps + k] = next - previous
                previous = next
            }
        }
        return Coefficients(start: start, count: count, weights: weights, taps: taps, vector: vector)
    }

    /// Resizes `image` to `width × height` pixels.
    public func resize(_ image: Image, width: Int, height: Int) -> Image {
        let change = ImageChange.geometry(.resize(fromWidth: image.width, fromHeight: image.height,
                                                  toWidth: width, toHeight: height))
        if width == image.width && height == image.height {
            var same = image
            same.metadata = image.metadata.applying(change)
            return same
        }
        let horizontal = width == image.width ? image : resizeRows(image, to: width)
        let result = height == image.height ? horizontal : resizeColumns(horizontal, to: height)
        return Image(width: result.width, height: result.height, pixels: result.pixels,
                     metadata: image.metadata.applying(change))
    }

    @inline(__always)
    static func clampFixed(_ v: Int32) -> UInt8 {
        let r = (v + (1 << (precisionBits - 1))) >> precisionBits
        return UInt8(truncatingIfNeeded: r < 0 ? 0 : (r > 255 ? 255 : r))
    }

    func resizeRows(_ image: Image, to width: Int) -> Image {
        let c = Self.coefficients(source: image.width, destination: width, filter: filter, vector: vectorLoops)
        let h = image.height, sw = image.width
        return image.pixels.withUnsafeBufferPointer { src in
            c.weights.withUnsafeBufferPointer { wts in
                Image(width: width, height: h) { dst in
                    guard let s = src.baseAddress, let d = dst.baseAddress, let w = wts.baseAddress else { return }
                    if let narrow = c.narrow {
                        let scratch = VectorScratch(sourceWidth: sw, taps: c.taps)
                        narrow.withUnsafeBufferPointer { n in
                            for y in 0..<h {
                                Self.filterRow(s + y * sw * 4, sourceWidth: sw, into: d + y * width * 4, c, narrow: n.baseAddress!,
                                               scratch: scratch)
                            }
                        }
                    } else {
                        for y in 0..<h { Self.filterRow(s + y * sw * 4, into: d + y * width * 4, c, w) }
                    }
                }
            }
        }
    }

    func resizeColumns(_ image: Image, to height: Int) -> Image {
        let c = Self.coefficients(source: image.height, destination: height, filter: filter, vector: vectorLoops)
        let rowBytes = image.width * 4
        return image.pixels.withUnsafeBufferPointer { src in
            c.weights.withUnsafeBufferPointer { wts in
                Image(width: image.width, height: height) { dst in
                    guard let s = src.baseAddress, let d = dst.baseAddress, let w = wts.baseAddress else { return }
                    var acc = [Int32](repeating: 0, count: rowBytes)
                    acc.withUnsafeMutableBufferPointer { acc in
                        if let narrow = c.narrow {
                            let scratch = VectorScratch(sourceWidth: 0, taps: c.taps)
                            narrow.withUnsafeBufferPointer { n in
                                for y in 0..<height {
                                    Self.filterColumns(row: { s + $0 * rowBytes }, output: y, into: d + y * rowBytes,
                                                       rowBytes: rowBytes, c, narrow: n.baseAddress!, scratch: scratch)
                                }
                            }
                        } else {
                            for y in 0..<height {
                                Self.filterColumns(row: { s + $0 * rowBytes }, output: y, into: d + y * rowBytes,
                                                   rowBytes: rowBytes, c, w, acc.baseAddress!)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The horizontal pass over one row: `c.start.count` destination pixels from the source row.
    @inline(__always)
    static func filterRow(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, _ c: Coefficients,
                          _ wts: UnsafePointer<Int32>) {
        for x in 0..<c.start.count {
            let s0 = Int(c.start[x]), n = Int(c.count[x]), wb = x * c.taps
            var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0, a: Int32 = 0
            var p = src + s0 * 4
            for k in 0..<n {
                let w = wts[wb + k]
                r &+= Int32(p[0]) &* w; g &+= Int32(p[1]) &* w
                b &+= Int32(p[2]) &* w; a &+= Int32(p[3]) &* w
                p += 4
            }
            let aa = clampFixed(a)
            let d = dst + x * 4
            d[0] = min(clampFixed(r), aa)
            d[1] = min(clampFixed(g), aa)
            d[2] = min(clampFixed(b), aa)
            d[3] = aa
        }
    }

    /// The vertical pass for output row `y`: source rows `c.start[y]` … through `row(_:)`.
    @inline(__always)
    static func filterColumns(row: (Int) -> UnsafePointer<UInt8>, output y: Int, into dst: UnsafeMutablePointer<UInt8>,
                              rowBytes: Int, _ c: Coefficients, _ wts: UnsafePointer<Int32>,
                              _ acc: UnsafeMutablePointer<Int32>) {
        let s0 = Int(c.start[y]), n = Int(c.count[y]), wb = y * c.taps
        for i in 0..<rowBytes { acc[i] = 0 }
        for k in 0..<n {
            let weight = wts[wb + k]
            let src = row(s0 + k)
            for i in 0..<rowBytes { acc[i] &+= Int32(src[i]) &* weight }
        }
        var i = 0
        while i < rowBytes {
            let aa = clampFixed(acc[i + 3])
            dst[i] = min(clampFixed(acc[i]), aa)
            dst[i + 1] = min(clampFixed(acc[i + 1]), aa)
            dst[i + 2] = min(clampFixed(acc[i + 2]), aa)
            dst[i + 3] = aa
            i += 4
        }
    }
}
