import SumiKit

/// A decoder written once, for a stream and for a whole image: it begins a stream and writes its
/// rows in order (`produceRows`); a whole image is the same decode into a stream as tall as the
/// image (`collecting`).
extension RowStream {
    /// Writes every row of the begun image, top first: `write(y, row)` fills row `y` (`width × 4`
    /// bytes of premultiplied RGBA). Rows are reserved and published in bands of the ring's
    /// capacity, not one by one, so a tall thin image pays no lock round per row.
    func produceRows(_ write: (Int, UnsafeMutablePointer<UInt8>) throws -> Void) throws {
        guard let height = shape?.height else { throw StageError("rows written before the image began") }
        var y = 0
        while y < height {
            let end = min(height, y + capacity)
            try reserve(through: end)
            for row in y..<end { try write(row, self.row(row)) }
            publish(through: end)
            y = end
        }
    }

    /// The image `produce` decodes into a stream as tall as the image (begun and filled by it):
    /// the stream's ring is the image's pixels, handed over without a copy.
    static func collecting(_ produce: (RowStream) throws -> Void) throws -> Image {
        let stream = RowStream(capacity: Int.max)
        try produce(stream)
        stream.finish()
        return try stream.image()
    }
}
