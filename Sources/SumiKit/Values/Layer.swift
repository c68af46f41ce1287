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
    /// Draws the content through `transform` (layout units → pixels of the result, which may turn
    /// it) into a `width × height` image; what falls outside is cut. Content that can redraw itself
    /// turned (text outlines, a raster image resampled once) implements this; the default draws at
    /// the transform's scale and then resamples that bitmap turned.
    func rasterize(transform: AffineTransform, width: Int, height: Int) throws -> Image
}

extension LayerContent {
    /// `rasterize(scaleX:scaleY:phase:)`, refused before drawing when the image it makes would pass
    /// `limits` (what every stage that draws a layer calls, with the run's limits).
    public func rasterize(scaleX: Double, scaleY: Double, phase: Point, limits: PixelLimits) throws -> Image {
        try limits.check(width: size.width * scaleX + phase.x, height: size.height * scaleY + phase.y,
                         making: "drawing the \(formatLayerSize(size)) layer at scale \(formatNumber(max(scaleX, scaleY)))")
        return try rasterize(scaleX: scaleX, scaleY: scaleY, phase: phase)
    }

    public func rasterize(transform: AffineTransform, width: Int, height: Int) throws -> Image {
        // transform = (turn and move) ∘ scale: draw at the scale, then turn the bitmap.
        let scaleX = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        let scaleY = (transform.c * transform.c + transform.d * transform.d).squareRoot()
        let drawn = try rasterize(scaleX: scaleX, scaleY: scaleY, phase: Point(x: 0, y: 0))
        let rest = AffineTransform.scale(1 / scaleX, 1 / scaleY).then(transform)
        guard let turned = AffineResampler(filter: .lanczos3).warp(drawn, transform: rest, width: width, height: height) else {
            throw StageError("layer: cannot draw through the transform \(transform)")
        }
        return turned
    }
}

/// Where a layer goes on its base: the top-left corner and the scale from layout units to base
/// pixels, and a turn about the layer's centre.
public struct Placement: Sendable, Hashable {
    public var origin: Point
    public var scaleX: Double
    public var scaleY: Double
    /// Degrees clockwise about the centre of the placed box. The box is positioned unturned (its
    /// `origin` is the unturned top-left corner), then turned — as a preview turns a caption the
    /// user rotates, and as CSS `transform: rotate()` and SwiftUI's `rotationEffect` do.
    public var rotation: Double
    public init(origin: Point, scaleX: Double, scaleY: Double, rotation: Double = 0) {
        self.origin = origin; self.scaleX = scaleX; self.scaleY = scaleY; self.rotation = rotation
    }
    public static let identity = Placement(origin: Point(x: 0, y: 0), scaleX: 1, scaleY: 1)

    /// Whether the placement turns the layer (by other than a whole number of full turns).
    public var isTurned: Bool { rotation.truncatingRemainder(dividingBy: 360) != 0 }

    /// The map from layout units of content of `size` to base pixels: turned about the content's
    /// centre in layout units (so with `fit: fill`'s unequal scales a turn in the preview stays the
    /// turn the user saw), then scaled, then moved to `origin`.
    public func transform(contentSize size: Size) -> AffineTransform {
        let cx = size.width / 2, cy = size.height / 2
        return AffineTransform.translation(-cx, -cy)
            .then(.rotation(degrees: rotation))
            .then(.translation(cx, cy))
            .then(.scale(scaleX, scaleY))
            .then(.translation(origin.x, origin.y))
    }
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

    /// The layer's bounds in base pixels: the placed box, or the box around it turned.
    public var bounds: Rect {
        let size = content.size
        guard placement.isTurned else {
            return Rect(x: placement.origin.x, y: placement.origin.y,
                        width: size.width * placement.scaleX, height: size.height * placement.scaleY)
        }
        return placement.transform(contentSize: size).boundingBox(of: Rect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// Rasterises the layer at its placement: the image and the integer pixel position of its top-left.
    /// A turned layer is drawn turned, into the whole pixels its bounds touch, cut to
    /// `0..<clip.width × 0..<clip.height` (the base) when given; an unturned one is drawn whole.
    /// The image is refused before it is drawn when it would pass `limits`.
    public func rendered(clippedTo clip: (width: Int, height: Int)? = nil,
                         limits: PixelLimits = .standard) throws -> (image: Image, x: Int, y: Int) {
        guard placement.isTurned else {
            let ox = placement.origin.x.rounded(.down), oy = placement.origin.y.rounded(.down)
            let image = try content.rasterize(scaleX: placement.scaleX, scaleY: placement.scaleY,
                                              phase: Point(x: placement.origin.x - ox, y: placement.origin.y - oy), limits: limits)
            return (image, Int(ox), Int(oy))
        }
        let box = bounds
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite else {
            throw StageError("layer: non-finite placement (\(box))")
        }
        var x0 = box.x.rounded(.down), y0 = box.y.rounded(.down)
        var x1 = box.maxX.rounded(.up), y1 = box.maxY.rounded(.up)
        if let clip {
            x0 = max(x0, 0); y0 = max(y0, 0)
            x1 = min(x1, Double(clip.width)); y1 = min(y1, Double(clip.height))
        }
        try limits.check(width: max(1, x1 - x0), height: max(1, y1 - y0), making: "drawing the turned layer")
        let width = max(1, Int(x1 - x0)), height = max(1, Int(y1 - y0))
        let transform = placement.transform(contentSize: content.size).then(.translation(-x0, -y0))
        let image = try content.rasterize(transform: transform, width: width, height: height)
        return (image, Int(x0), Int(y0))
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

    /// Turned (or otherwise transformed): the image's own pixels are resampled once, straight to
    /// the output grid, with the layer's filter.
    public func rasterize(transform: AffineTransform, width: Int, height: Int) throws -> Image {
        guard let warped = AffineResampler(filter: filter).warp(image, transform: transform, width: width, height: height) else {
            throw StageError("image layer: cannot draw through the transform \(transform)")
        }
        return warped
    }
}

/// "300x40" for a layer's size in layout units, rounded up to whole units.
func formatLayerSize(_ size: Size) -> String {
    "\(formatNumber(size.width.rounded(.up)))x\(formatNumber(size.height.rounded(.up)))"
}
