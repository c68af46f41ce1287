extension Resampler {
    /// Resizes a streamed image to `width × height` band by band, with the same arithmetic (and so the
    /// same bytes) as `resize(_:width:height:)`: each source row is filtered horizontally as it
    /// arrives and released at once; the vertical pass reads a ring of filtered rows as tall as the
    /// filter's taps. Memory: that ring, whatever the image's height.
    ///
    /// `output` must not have begun: this begins it with the resized shape.
    public func resize(rows input: RowStream, width: Int, height: Int, into output: RowStream) throws {
        let shape = try input.waitForStart()
        let (sw, sh) = (shape.width, shape.height)
        let change = ImageChange.geometry(.resize(fromWidth: sw, fromHeight: sh, toWidth: width, toHeight: height))
        try output.begin(ImageShape(width: width, height: height, metadata: shape.metadata.applying(change)))
        guard width > 0, height > 0 else { return }
        let horizontal = width == sw ? nil : Self.coefficients(source: sw, destination: width, filter: filter)
        let vertical = height == sh ? nil : Self.coefficients(source: sh, destination: height, filter: filter)
        let rowBytes = width * 4
        // Bands of up to 16 rows, never more than the stream lets a consumer hold.
        let band = min(16, input.capacity)

        // Source rows arrive in bands; `filtered(into:)` turns the next one into `width` pixels.
        var next = 0, available = 0
        let hWeights = horizontal?.weights ?? []
        func nextSourceRow(into dst: UnsafeMutablePointer<UInt8>) throws {
            if next >= available { available = try input.waitForRows(through: min(sh, next + band)) }
            let src = UnsafePointer(input.row(next))
            if let horizontal {
                hWeights.withUnsafeBufferPointer { Self.filterRow(src, into: dst, horizontal, $0.baseAddress!) }
            } else {
                dst.update(from: src, count: rowBytes)
            }
            next += 1
            input.release(through: next)
        }

        guard let vertical else {
            for y in 0..<height {
                try output.reserve(through: y + 1)
                try nextSourceRow(into: output.row(y))
                output.publish(through: y + 1)
            }
            return
        }
        // A ring of filtered rows: row r at slot r % taps (the rows an output row needs are fewer
        // than `taps` and never go back, since `start` does not decrease).
        let slots = max(1, vertical.taps)
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * rowBytes)
        defer { ring.deallocate() }
        let acc = UnsafeMutablePointer<Int32>.allocate(capacity: rowBytes)
        defer { acc.deallocate() }
        var filtered = 0
        try vertical.weights.withUnsafeBufferPointer { weights in
            for y in 0..<height {
                let needed = Int(vertical.start[y]) + Int(vertical.count[y])
                while filtered < needed {
                    try nextSourceRow(into: ring + (filtered % slots) * rowBytes)
                    filtered += 1
                }
                try output.reserve(through: y + 1)
                Self.filterColumns(row: { UnsafePointer(ring + ($0 % slots) * rowBytes) }, output: y,
                                   into: output.row(y), rowBytes: rowBytes, vertical, weights.baseAddress!, acc)
                output.publish(through: y + 1)
            }
        }
        // Rows below the last one any output row reads are not needed.
        input.discardRemaining()
    }
}
