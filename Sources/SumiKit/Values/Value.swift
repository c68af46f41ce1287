/// The kinds of value that flow along a pipeline's edges; ports declare which kinds they accept.
public enum ValueKind: String, Sendable, Hashable, CaseIterable {
    /// One raster image.
    case image
    /// A drawable layer (text, or an image used as a layer).
    case layer
    /// An ordered list of images (taken one at a time by consumers that can).
    case images
    /// A written file (an encoded image, a PDF).
    case file

    /// Whether a value of this kind can feed a port that accepts `other`.
    /// An image is also a layer (drawn as a raster layer) and a one-element list.
    public func canFeed(_ other: ValueKind) -> Bool {
        self == other || (self == .image && (other == .layer || other == .images))
    }
}

/// A value passed from one stage to the next.
public enum Value: Sendable {
    case image(Image)
    case layer(Layer)
    case images(ImageList)
    case file(FileOutput)

    public var kind: ValueKind {
        switch self {
        case .image: .image
        case .layer: .layer
        case .images: .images
        case .file: .file
        }
    }
}

/// A file a stage wrote, as the run report describes it.
public struct FileOutput: Sendable {
    /// The path written (`-` for standard output).
    public var path: String
    /// `png`, `jpeg`, `pdf`, ...
    public var format: String
    /// The size of what was written.
    public var bytes: Int
    /// Image outputs: pixels. PDF outputs: the current page's size in points.
    public var width: Double
    public var height: Double
    /// PDF outputs only.
    public var pages: Int?
    public var currentPage: Int?
    /// PDF outputs: the viewport in the current page, PDF points, origin bottom-left; `.zero` when none.
    public var rectInCurrentPage: Rect?

    public init(path: String, format: String, bytes: Int, width: Double, height: Double,
                pages: Int? = nil, currentPage: Int? = nil, rectInCurrentPage: Rect? = nil) {
        self.path = path; self.format = format; self.bytes = bytes; self.width = width; self.height = height
        self.pages = pages; self.currentPage = currentPage; self.rectInCurrentPage = rectInCurrentPage
    }
}
