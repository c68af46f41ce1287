#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSumiCodecs
import SumiCodecs
import SumiKit

/// Encodes one strip's rows (premultiplied RGBA), held whole: losslessly — palette indices when the
/// strip has at most 256 distinct pixels, else RGB, both Flate with PNG predictors — or as JPEG.
/// Alpha, when some pixel is not opaque, becomes a Flate soft mask beside either.
enum StripEncoder {
    /// zlib level for RGB and alpha; palette indices (a third of the bytes or less) get two more.
    static let level: Int32 = 6
    static let indexLevel: Int32 = 8

    /// How a JPEG strip is encoded.
    struct JPEGSettings: Sendable {
        let quality: Int
        /// 4:4:4 rather than 4:2:0.
        let fullChroma: Bool
        /// With a floor, the strip is decoded again and measured: below the floor (PSNR over RGB, dB)
        /// it is encoded again at a higher quality (`JPEGErrorModel.lowestQuality`), up to 99.
        var minimumPSNR: Double? = nil
    }

    /// A strip's encoded form: data, soft mask, and for JPEG the quality used and its PSNR when
    /// measured.
    struct Encoded: Sendable {
        let data: PageStrip.Data
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
            while true {
                let bytes = alpha == nil
                    ? try JPEGEncoder.encode(image, quality: quality, fullChroma: jpeg.fullChroma)
                    : try JPEGReencoder.encode(image, quality: quality, fullChroma: jpeg.fullChroma)
                var encoded = Encoded(data: .jpeg(bytes, components: 3, source: false), alpha: alpha, quality: quality)
                guard let floor = jpeg.minimumPSNR, alpha == nil else { return encoded }
                // Decoding to measure costs as much as the encoding: not when the quantisation alone
                // leaves the floor well behind.
                if jpeg.fullChroma, JPEGErrorModel.psnr(quality: quality) >= floor + JPEGErrorModel.margin { return encoded }
                let decoded = try ImageDecoder.decode(bytes, name: "a JPEG strip")
                let measured = psnr(decoded, image)
                encoded.psnr = measured
                if measured >= floor || quality >= 99 { return encoded }
                // Below the floor: straight to the quality the quantisation alone takes past it
                // (fine grain measures what the model says), one step at least.
                quality = max(quality + 1, JPEGErrorModel.lowestQuality(reaching: floor + JPEGErrorModel.margin))
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

    /// PSNR over RGB (dB; infinity when equal) of two opaque images of the same size.
    static func psnr(_ a: Image, _ b: Image) -> Double {
        guard a.width == b.width, a.height == b.height, a.pixels.count == b.pixels.count else { return 0 }
        var sum = 0
        a.pixels.withUnsafeBufferPointer { p in
            b.pixels.withUnsafeBufferPointer { q in
                let n = p.count / 4 * 4
                var i = 0
                while i < n {
                    let r = Int(p[i]) - Int(q[i]), g = Int(p[i + 1]) - Int(q[i + 1]), b = Int(p[i + 2]) - Int(q[i + 2])
                    sum += r * r + g * g + b * b
                    i += 4
                }
            }
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 * Double(a.width * a.height * 3) / Double(sum))
    }

    /// One zlib stream of the image's rows as `samples` gives them (`rowLength` bytes each, the
    /// image's width times `bytesPerPixel` unless given), PNG-predicted.
    static func compress(_ image: Image, rowLength: Int? = nil, bytesPerPixel: Int, unordered: Bool, level: Int32,
                         samples: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws -> [UInt8] {
        let n = rowLength ?? image.width * bytesPerPixel
        var predictor = PNGPredictor(bytesPerPixel: bytesPerPixel, rowLength: n, unordered: unordered)
        var previous = [UInt8](repeating: 0, count: n), current = previous
        var predicted = [UInt8](repeating: 0, count: image.height * (n + 1))
        for y in 0..<image.height {
            current.withUnsafeMutableBufferPointer { samples(y, $0) }
            current.withUnsafeBufferPointer { cur in
                previous.withUnsafeBufferPointer { prev in
                    predicted.withUnsafeMutableBufferPointer { out in
                        predictor.filter(cur, previous: prev, into: UnsafeMutableBufferPointer(rebasing: out[(y * (n + 1))..<((y + 1) * (n + 1))]))
                    }
                }
            }
            swap(&previous, &current)
        }
        if !unordered { return try FlateParts.compressSamples(predicted, rowLength: n, level: level) }
        let (bytes, adler) = try FlateParts.compress(predicted, rowLength: n, dictionary: [], last: true, level: level)
        let sink = ByteCollector()
        try FlateParts.join([(bytes, adler, predicted.count)], into: sink)
        return sink.bytes
    }

    /// One row's straight RGB (premultiplication undone) from its premultiplied RGBA.
    static func rgbSamples(_ px: UnsafeBufferPointer<UInt8>, width: Int, into o: UnsafeMutableBufferPointer<UInt8>) {
        precondition(px.count >= width * 4 && o.count >= width * 3)
        guard width > 0, let source = px.baseAddress, let target = o.baseAddress else { return }
        sumi_straight_rgb(source, target, width)
    }
}
