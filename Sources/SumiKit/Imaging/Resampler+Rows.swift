extension Resampler {
    /// Resizes a streamed image to `width × height` band by band, with the same arithmetic (and so the
    /// same bytes) as `resize(_:width:height:)`: each source row is filtered horizontally as it
    /// arrives; the vertical pass reads a ring of filtered rows as tall as the filter's taps. Memory:
    /// that ring, whatever the image's height. Rows change hands in bands (source rows released,
    /// output rows published, just before this side could wait), not row by row: every hand-over
    /// can wake the other side's thread.
    ///
    /// `output` must not have begun: this begins it with the resized shape.
    public func resize(rows input: RowStream, width: Int, height: Int, into output: RowStream) throws {
        let shape = try input.waitForStart()
        let (sw, sh) = (shape.width, shape.height)
        let change = ImageChange.geometry(.resize(fromWidth: sw, fromHeight: sh, toWidth: width, toHeight: height))
        try output.begin(ImageShape(width: width, height: height, metadata: shape.metadata.applying(change)))
        guard width > 0, height > 0 else { return }
        let horizontal = width == sw ? nil : Self.coefficients(source: sw, destination: width, filter: filter, vector: vectorLoops)
        let vertical = height == sh ? nil : Self.coefficients(source: sh, destination: height, filter: filter, vector: vectorLoops)
        let rowBytes = width * 4
        // Bands as the streams' row sizes suggest, never more than a stream lets a side hold.
        let band = input.band(rowBytes: sw * 4)
        let outputBand = output.band(rowBytes: rowBytes)
        // Source rows read and output rows written, and how far each was handed over: before any wait
        // (`handOver()`), so neither side ever waits for rows this side is done with.
        var next = 0, available = 0, released = 0
        var written = 0, published = 0, reserved = 0
        func handOver() {
            if written > published { output.publish(through: written); published = written }
            if next > released { input.release(through: next); released = next }
        }
        // Room for output row `written`.
        func reserveOutput() throws {
            guard written >= reserved else { return }
            handOver()
            reserved = min(height, written + outputBand)
            try output.reserve(through: reserved)
        }

        // Source rows arrive in bands; `nextSourceRow(into:)` turns the next one into `width` pixels.
        let hWeights = horizontal?.weights ?? []
        let rowScratch = VectorScratch(sourceWidth: sw, taps: horizontal?.taps ?? 0)
        func nextSourceRow(into dst: UnsafeMutablePointer<UInt8>) throws {
            if next >= available {
                handOver()
                available = try input.waitForRows(through: min(sh, next + band))
            }
            let src = UnsafePointer(input.row(next))
            if let horizontal, let narrow = horizontal.narrow {
                narrow.withUnsafeBufferPointer {
                    Self.filterRow(src, sourceWidth: sw, into: dst, horizontal, narrow: $0.baseAddress!, scratch: rowScratch)
                }
            } else if let horizontal {
                hWeights.withUnsafeBufferPointer { Self.filterRow(src, into: dst, horizontal, $0.baseAddress!) }
            } else {
                dst.update(from: src, count: rowBytes)
            }
            next += 1
        }

        guard let vertical else {
            for y in 0..<height {
                try reserveOutput()
                try nextSourceRow(into: output.row(y))
                written = y + 1
            }
            handOver()
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
        let narrow = vertical.narrow ?? []
        let columnScratch = VectorScratch(sourceWidth: 0, taps: vertical.taps)
        try vertical.weights.withUnsafeBufferPointer { weights in
            try narrow.withUnsafeBufferPointer { narrowWeights in
                for y in 0..<height {
                    let needed = Int(vertical.start[y]) + Int(vertical.count[y])
                    while filtered < needed {
                        try nextSourceRow(into: ring + (filtered % slots) * rowBytes)
                        filtered += 1
                    }
                    try reserveOutput()
                    let row = { (r: Int) in UnsafePointer(ring + (r % slots) * rowBytes) }
                    if vertical.narrow != nil, let n = narrowWeights.baseAddress {
                        Self.filterColumns(row: row, output: y, into: output.row(y), rowBytes: rowBytes, vertical,
                                           narrow: n, scratch: columnScratch)
                    } else {
                        Self.filterColumns(row: row, output: y, into: output.row(y), rowBytes: rowBytes, vertical,
                                           weights.baseAddress!, acc)
                    }
                    written = y + 1
                }
            }
        }
        handOver()
        // Rows below the last one any output row reads are not needed.
        input.discardRemaining()
    }
}
