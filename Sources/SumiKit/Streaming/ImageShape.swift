/// What is known of an image before its pixels: its size and side data. A streamed image's shape
/// is known at `RowStream.begin`, so a stage that reads only the shape (`place` reads the base's
/// size) runs while the pixels are still being produced, without forcing a full buffer.
public struct ImageShape: Sendable {
    public var width: Int
    public var height: Int
    public var metadata: ImageMetadata

    public init(width: Int, height: Int, metadata: ImageMetadata = ImageMetadata()) {
        self.width = width
        self.height = height
        self.metadata = metadata
    }

    /// The shape of an existing image.
    public init(_ image: Image) {
        self.init(width: image.width, height: image.height, metadata: image.metadata)
    }

    /// Bytes in one row.
    public var stride: Int { width * 4 }
}
