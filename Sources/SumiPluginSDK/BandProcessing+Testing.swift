import SumiKit

extension BandProcessing {
    /// Runs the band methods over an in-memory image, as a streaming host would: `beginBands`, then
    /// `processBand` for consecutive bands of `bandHeights` rows (cycled; the last band is cut to
    /// the image), then `endBands`. For tests: the result must equal the whole-image `process`'s.
    /// The result has no side data.
    public func runBands(on image: Image, bandHeights: [Int] = [16]) throws -> Image {
        guard image.width > 0, image.height > 0, !bandHeights.isEmpty, bandHeights.allSatisfy({ $0 > 0 }) else {
            throw StageError("runBands needs a non-empty image and band heights of at least 1 row")
        }
        try beginBands(width: image.width, height: image.height)
        var completed = false
        defer { if !completed { try? endBands(completed: false) } }
        var output = [UInt8](repeating: 0, count: image.pixels.count)
        try image.pixels.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { target in
                guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return }
                var y = 0, band = 0
                while y < image.height {
                    let rows = min(bandHeights[band % bandHeights.count], image.height - y)
                    let offset = y * image.stride
                    try processBand(ImageBand(base: sourceBase + offset, width: image.width, firstRow: y,
                                              rowCount: rows, stride: image.stride),
                                    into: MutableImageBand(base: targetBase + offset, width: image.width, firstRow: y,
                                                           rowCount: rows, stride: image.stride))
                    y += rows
                    band += 1
                }
            }
        }
        completed = true
        try endBands(completed: true)
        return Image(width: image.width, height: image.height, pixels: output)
    }
}
