import SumiKit

/// Compresses an image's colour (RGB, un-premultiplied) or its alpha channel as a Flate stream with
/// PNG predictors, handing compressed bytes to a sink as they are produced.
struct FlateImageEncoder {
    /// Which samples of the image are written.
    enum Channels: Sendable {
        case rgb
        case alpha

        var count: Int { self == .rgb ? 3 : 1 }
    }

    let image: Image
    let channels: Channels
    var level: Int32 = 6

    /// Writes the compressed stream to `sink`; returns its length in bytes.
    func encode(to sink: (UnsafeBufferPointer<UInt8>) throws(StageError) -> Void) throws(StageError) -> Int {
        let width = image.width, height = image.height
        let rowLength = width * channels.count
        let deflater = try DeflateStream(level: level)
        var predictor = PNGPredictor(bytesPerPixel: channels.count, rowLength: rowLength)
        var previous = [UInt8](repeating: 0, count: rowLength)
        var current = [UInt8](repeating: 0, count: rowLength)
        let rowsPerBatch = max(1, (1 << 16) / (rowLength + 1))
        var batch = [UInt8](repeating: 0, count: rowsPerBatch * (rowLength + 1))
        var total = 0
        var y = 0
        while y < height {
            let rows = min(rowsPerBatch, height - y)
            for k in 0..<rows {
                samples(row: y + k, into: &current)
                current.withUnsafeBufferPointer { cur in
                    previous.withUnsafeBufferPointer { prev in
                        batch.withUnsafeMutableBufferPointer { out in
                            let start = k * (rowLength + 1)
                            predictor.filter(cur, previous: prev,
                                             into: UnsafeMutableBufferPointer(rebasing: out[start..<(start + rowLength + 1)]))
                        }
                    }
                }
                swap(&previous, &current)
            }
            y += rows
            let used = rows * (rowLength + 1)
            try batch.withUnsafeBufferPointer { (b) throws(StageError) in
                try deflater.compress(UnsafeBufferPointer(rebasing: b[0..<used]), finish: y >= height) { (bytes) throws(StageError) in
                    total += bytes.count
                    try sink(bytes)
                }
            }
        }
        if height == 0 {
            try deflater.compress(UnsafeBufferPointer(start: nil, count: 0), finish: true) { (bytes) throws(StageError) in
                total += bytes.count
                try sink(bytes)
            }
        }
        return total
    }

    /// One row's samples: straight RGB (premultiplication undone) or alpha.
    private func samples(row y: Int, into out: inout [UInt8]) {
        let width = image.width
        image.pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { o in
                var p = y * width * 4
                switch channels {
                case .alpha:
                    for x in 0..<width {
                        o[x] = px[p + 3]
                        p += 4
                    }
                case .rgb:
                    var q = 0
                    for _ in 0..<width {
                        let a = px[p + 3]
                        if a == 255 {
                            o[q] = px[p]; o[q + 1] = px[p + 1]; o[q + 2] = px[p + 2]
                        } else if a == 0 {
                            o[q] = 0; o[q + 1] = 0; o[q + 2] = 0
                        } else {
                            let a32 = UInt32(a), half = UInt32(a) / 2
                            o[q] = UInt8(min(255, (UInt32(px[p]) * 255 + half) / a32))
                            o[q + 1] = UInt8(min(255, (UInt32(px[p + 1]) * 255 + half) / a32))
                            o[q + 2] = UInt8(min(255, (UInt32(px[p + 2]) * 255 + half) / a32))
                        }
                        p += 4
                        q += 3
                    }
                }
            }
        }
    }
}
