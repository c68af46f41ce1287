#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSumiPixels
import SumiCodecs
import SumiKit

/// Encodes one strip's rows (premultiplied RGBA), held whole: losslessly — palette indices when the
/// strip has at most 256 distinct pixels, else RGB, both Flate with PNG predictors — or as JPEG.
/// Alpha, when some pixel is not opaque, becomes a Flate soft mask beside either.
enum StripEncoder {
    /// zlib level for RGB and alpha; palette indices (a third of the bytes or less) get two more.
    static let level: Int32 = 6
    static let indexLevel: Int32 = 7

    /// How a JPEG strip is encoded.
    struct JPEGSettings: Sendable {
        let quality: Int
        /// 4:4:4 rather than 4:2:0.
        let fullChroma: Bool
        /// With a floor, the strip is decoded again and measured: below the floor (PSNR over RGB, dB)
        /// it is encoded again at a higher quality, up to 99; well above it at `quality`, one step
        /// lower (`JPEGErrorModel.stepDown`) is tried.
        var minimumPSNR: Double? = nil
        /// The quality found is written as progressive JPEG (the same pixels in about 5 % fewer
        /// bytes, for one more encoding of an opaque strip).
        var progressive = false
    }

    /// A strip's encoded form: data, soft mask, and for JPEG the quality used and its PSNR when
    /// measured.
    struct Encoded: Sendable {
        var data: PageStrip.Data
        let alpha: [UInt8]?
        var quality: Int? = nil
        var psnr: Double? = nil
    }

    /// The strip `image` (its `imageRows` rows) as stored data and soft mask.
    static func encode(_ image: Image, jpeg: JPEGSettings?) throws -> Encoded {
        let alpha = image.isOpaque ? nil : try compress(image, bytesPerPixel: 1, unordered: false, level: level) { y, out in
            image.pixels.withUnsafeBufferPointer { px in
                let start = y * image.stride
                for x in 0..<image.width { out[x] = px[start + x * 4 + 3] }
            }
        }
        if let jpeg {
            var quality = jpeg.quality
            var best: Encoded?
            // Trials that a progressive encoding replaces skip the optimised Huffman tables' second pass.
            let trial = jpeg.progressive && jpeg.minimumPSNR != nil && alpha == nil
            while true {
                let bytes = alpha == nil
                    ? try JPEGEncoder.encode(image, quality: quality, fullChroma: jpeg.fullChroma, optimize: !trial)
                    : try JPEGReencoder.encode(image, quality: quality, fullChroma: jpeg.fullChroma)
                var encoded = Encoded(data: .jpeg(bytes, components: 3, source: false), alpha: alpha, quality: quality)
                guard let floor = jpeg.minimumPSNR, alpha == nil else { return encoded }
                // Decoding to measure costs as much as the encoding: not when the quantisation alone
                // leaves the floor well behind.
                if jpeg.fullChroma, JPEGErrorModel.psnr(quality: quality) >= floor + JPEGErrorModel.margin { return try finished(encoded, image, jpeg) }
                let decoded = try ImageDecoder.decode(bytes, name: "a JPEG strip")
                let measured = photoPSNR(decoded, image)
                encoded.psnr = measured
                if measured >= floor {
                    // Well above the floor at the first quality tried: one step down, kept if it
                    // still reaches the floor.
                    guard best == nil, quality == jpeg.quality, measured >= floor + JPEGErrorModel.stepDownMargin else {
                        return try finished(encoded, image, jpeg)
                    }
                    best = encoded
                    quality -= JPEGErrorModel.stepDown
                    continue
                }
                if let best { return try finished(best, image, jpeg) }
                if quality >= 99 { return try finished(encoded, image, jpeg) }
                // Below the floor: about half a decibel a quality step near 90, one step at least,
                // but no further than the quality the quantisation alone takes past it (fine grain,
                // far below, measures what the model says).
                let steps = Int(((floor - measured) / 0.45).rounded(.up))
                let model = JPEGErrorModel.lowestQuality(reaching: floor + JPEGErrorModel.margin)
                quality = min(99, max(quality + 1, min(quality + steps, model)))
            }
        }
        // At least 2 bits: poppler's pdfimages extracts 1-bit images as black and white whatever
        // their palette, and two colours at 2 bits cost next to nothing more once compressed.
        if let indexed = try IndexedImage(image, minimumBits: 2) {
            let bytes = try compress(image, rowLength: indexed.packedRowLength, bytesPerPixel: 1, unordered: true,
                                     level: indexLevel) { y, out in indexed.packRow(y, into: out) }
            return Encoded(data: .palette(colors: indexed.colors, bits: indexed.bitsPerIndex, bytes: bytes), alpha: alpha)
        }
        let bytes = try compress(image, rowLength: image.width * 3, bytesPerPixel: 3, unordered: false, level: level) { y, out in
            image.pixels.withUnsafeBufferPointer { px in
                let start = y * image.stride
                rgbSamples(UnsafeBufferPointer(rebasing: px[start..<(start + image.width * 4)]), width: image.width, into: out)
            }
        }
        return Encoded(data: .rgb(bytes), alpha: alpha)
    }

    /// An opaque strip's JPEG at the quality found, progressive when `settings` asks.
    private static func finished(_ encoded: Encoded, _ image: Image, _ settings: JPEGSettings) throws -> Encoded {
        guard settings.progressive, let quality = encoded.quality else { return encoded }
        var progressive = encoded
        let bytes = try JPEGEncoder.encode(image, quality: quality, fullChroma: settings.fullChroma, progressive: true)
        progressive.data = .jpeg(bytes, components: 3, source: false)
        return progressive
    }

    /// The lowest PSNR of a JPEG strip against its rows, each of `photoSlices` columns wide slices
    /// taken apart over the pixels unlike their left neighbour (photo, not the flat colour around
    /// it, whose few errors would make a photo beside a margin look better than it is; and apart,
    /// as a strip may hold two photos side by side that quantise unlike).
    static func photoPSNR(_ decoded: Image, _ image: Image) -> Double {
        psnrs(decoded, image, slices: max(1, (image.width + photoSlice / 2) / photoSlice), busyOnly: true).min() ?? 0
    }

    /// The width of the slices a JPEG strip's PSNR is measured over.
    static let photoSlice = 240

    /// PSNR over RGB (dB; infinity when equal) of `slices` column slices of two opaque images of the
    /// same size; with `busyOnly`, over the pixels of `b` unlike their left neighbour only.
    static func psnrs(_ a: Image, _ b: Image, slices: Int, busyOnly: Bool) -> [Double] {
        guard a.width == b.width, a.height == b.height, a.pixels.count == b.pixels.count, slices > 0 else { return [0] }
        var sums = [Int](repeating: 0, count: slices), counts = sums
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                for slice in 0..<slices {
                    let x0 = slice * b.width / slices, x1 = (slice + 1) * b.width / slices
                    var sum = 0, counted = 0
                    for y in 0..<b.height {
                        let row = y * b.stride
                        for x in x0..<x1 {
                            let i = row + x * 4
                            if busyOnly && x > 0 && q[i] == q[i - 4] && q[i + 1] == q[i - 3] && q[i + 2] == q[i - 2] { continue }
                            let r = Int(p[i]) - Int(q[i]), g = Int(p[i + 1]) - Int(q[i + 1]), b = Int(p[i + 2]) - Int(q[i + 2])
                            sum += r * r + g * g + b * b
                            counted += 1
                        }
                    }
                    sums[slice] = sum
                    counts[slice] = counted
                }
            }
        }
        return zip(sums, counts).map { sum, counted in
            sum == 0 ? .infinity : 10 * log10(255 * 255 * Double(counted * 3) / Double(sum))
        }
    }

    /// A 1-bit stencil `width` x `rows`, 1 over the columns `hole` in every row, as one zlib stream of
    /// PNG-predicted rows (the first as it is, the others Up: all zeros).
    static func stencil(width: Int, rows: Int, hole: Range<Int>) throws -> [UInt8] {
        let rowLength = (width + 7) / 8
        var first = [UInt8](repeating: 0, count: rowLength + 1), next = first
        for x in hole.clamped(to: 0..<width) { first[1 + x / 8] |= 0x80 >> UInt8(x % 8) }
        next[0] = 2
        let flate = try FilteredFlate(rowLength: rowLength, bytesPerPixel: 1, level: level, indices: false)
        for y in 0..<rows { try (y == 0 ? first : next).withUnsafeBufferPointer { try flate.addFiltered($0) } }
        return try flate.finish()
    }

    /// One zlib stream of the image's rows as `samples` gives them (`rowLength` bytes each, the
    /// image's width times `bytesPerPixel` unless given), PNG-predicted (`FilteredFlate`).
    static func compress(_ image: Image, rowLength: Int? = nil, bytesPerPixel: Int, unordered: Bool, level: Int32,
                         samples: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws -> [UInt8] {
        let n = rowLength ?? image.width * bytesPerPixel
        let flate = try FilteredFlate(rowLength: n, bytesPerPixel: bytesPerPixel, level: level, indices: unordered)
        var row = [UInt8](repeating: 0, count: max(1, n))
        for y in 0..<image.height {
            row.withUnsafeMutableBufferPointer { samples(y, UnsafeMutableBufferPointer(rebasing: $0[0..<n])) }
            try row.withUnsafeBufferPointer { try flate.add($0) }
        }
        return try flate.finish()
    }

    /// One row's straight RGB (premultiplication undone) from its premultiplied RGBA.
    static func rgbSamples(_ px: UnsafeBufferPointer<UInt8>, width: Int, into o: UnsafeMutableBufferPointer<UInt8>) {
        precondition(px.count >= width * 4 && o.count >= width * 3)
        guard width > 0, let source = px.baseAddress, let target = o.baseAddress else { return }
        sumi_straight_rgb(source, target, width)
    }
}
