/// A whole image through a stream: `deliver` for a producer that cannot stream, `whole` for a stage
/// that reads rows given a whole image.
extension RowStream {
    /// Writes a whole image through the ring (for producers that cannot stream): begins, then copies
    /// it band by band as the consumer makes room. A stream as tall as the image takes the image's
    /// pixels as its ring instead: without a copy when the caller hands over its only reference
    /// (`deliver(consume image)`), with one when the pixels are shared (copy on write), so rows in a
    /// ring are never another image's.
    public func deliver(_ image: consuming Image) throws {
        if requestedCapacity >= image.height {
            let shape = ImageShape(width: image.width, height: image.height, metadata: image.metadata)
            let pixels = (consume image).pixels
            try begin(shape, pixels: consume pixels)
            try reserve(through: shape.height)
            publish(through: shape.height)
            return
        }
        try deliverByBands(image)
    }

    /// `deliver` into a ring shorter than the image: copies band by band as the consumer makes room.
    private func deliverByBands(_ image: Image) throws {
        try begin(ImageShape(image))
        let band = max(1, capacity)
        try image.pixels.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            var y = 0
            while y < image.height {
                let end = min(image.height, y + band)
                try reserve(through: end)
                for row in y..<end { self.row(row).update(from: base + row * image.stride, count: image.stride) }
                publish(through: end)
                y = end
            }
        }
    }

    /// A complete stream over `image`'s rows (a stage that reads rows, given a whole image): without
    /// a copy when the caller hands over its only reference, else over a copy; its `image()` gives
    /// the pixels back.
    public static func whole(_ image: consuming Image) -> RowStream {
        let stream = RowStream(capacity: max(1, image.height))
        try? stream.deliver(consume image)
        stream.finish()
        return stream
    }
}
