/// Something that can be drawn at any scale: the content of a layer.
///
/// Text keeps its glyph outlines until `rasterize` is called with the final scale, so a label laid out
/// at 17 px and placed on a photo at 7.7× is drawn at 131 px, never scaled up as a bitmap.
public protocol LayerContent: Sendable {
    /// The content's size in layout units (pixels at scale 1).
    var size: Size { get }
    /// Draws the content at `scale` layout units → pixels, premultiplied RGBA, with the content's
    /// top-left at pixel (0, 0) shifted by `phase` (a sub-pixel offset in 0..<1, so content lands
    /// where a fractional placement puts it). The result covers the content:
    /// `ceil(size.width * scaleX + phase.x) × ceil(size.height * scaleY + phase.y)` pixels.
    func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image
}

/// Where a layer goes on its base: the top-left corner and the scale from layout units to base pixels.
public struct Placement: Sendable, Hashable {
    public var origin: Point
    public var scaleX: Double
    public var scaleY: Double
    public init(origin: Point, scaleX: Double, scaleY: Double) {
        self.origin = origin; self.scaleX = scaleX; self.scaleY = scaleY
    }
    public static let identity = Placement(origin: Point(x: 0, y: 0), scaleX: 1, scaleY: 1)
}

/// A layer: drawable content plus where it is placed (identity until `place` positions it).
public struct Layer: Sendable {
    public var content: any LayerContent
    public var placement: Placement

    public init(content: any LayerContent, placement: Placement = .identity) {
        self.content = content
        self.placement = placement
    }

    /// A layer showing a raster image, resampled with `filter` when it is drawn at another scale.
    public init(image: Image, filter: ResampleFilter = .lanczos3) {
        self.init(content: RasterLayerContent(image: image, filter: filter))
    }

    /// The layer's bounds in base pixels.
    public var bounds: Rect {
        Rect(x: placement.origin.x, y: placement.origin.y,
             width: content.size.width * placement.scaleX, height: content.size.height * placement.scaleY)
    }

    /// Rasterises the layer at its placement: the image and the integer pixel position of its top-left.
    public func rendered() throws -> (image: Image, x: Int, y: Int) {
        let ox = placement.origin.x.rounded(.down), oy = placement.origin.y.rounded(.down)
        let image = try content.rasterize(scaleX: placement.scaleX, scaleY: placement.scaleY,
                                          phase: Point(x: placement.origin.x - ox, y: placement.origin.y - oy))
        return (image, Int(ox), Int(oy))
    }
}

/// A raster image used as a layer.
public struct RasterLayerContent: LayerContent {
    public let image: Image
    public let filter: ResampleFilter
    public init(image: Image, filter: ResampleFilter = .lanczos3) { self.image = image; self.filter = filter }
    public var size: Size { Size(width: Double(image.width), height: Double(image.height)) }
    public func rasterize(scaleX: Double, scaleY: Double, phase: Point) throws -> Image {
        let w = max(1, Int((Double(image.width) * scaleX).rounded()))
        let h = max(1, Int((Double(image.height) * scaleY).rounded()))
        if w == image.width && h == image.height { return image }
        return Resampler(filter: filter).resize(image, width: w, height: h)
    }
}
