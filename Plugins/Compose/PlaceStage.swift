import SumiKit

/// `place`: positions a layer on an image the way it was positioned over an on-screen preview of that
/// image (see `PreviewMapping`). The output is the same layer content with its placement set; nothing
/// is drawn until `blend` rasterises it at the final scale.
///
/// With `rotation`, the layer is positioned unturned (anchor and offset place its unturned box) and
/// then turned about that box's centre — what a preview does when a user turns a caption, and what
/// CSS `transform: rotate()` and SwiftUI's `rotationEffect` do.
///
/// A placement already carried by the input layer is replaced, not combined.
///
/// The layer may be an image (a watermark, a logo): it is a raster layer one frame unit a pixel.
/// `opacity` fades it (any layer, text too); `tile=true` repeats it edge to edge over the whole
/// base, from where `anchor` and `offset` put one copy — the layer then made is as large as the base
/// (4 bytes a pixel when `blend` draws it), checked against the run's pixel limit here, before
/// anything is drawn. `anchor` is what other tools call the gravity.
public struct PlaceStage: Stage {
    static let frame = Parameter<Size?>("frame",
                                        summary: "size of the on-screen preview the layer was positioned in; a side of 0 follows the base's aspect (default: the base's size, so frame units are base pixels)")
    static let fit = Parameter<PreviewMapping.Fit>("fit", default: .contain,
                                                   summary: "how the base was shown in the frame: contain (letterboxed), cover (cropped) or fill (stretched)")
    static let anchor = Parameter<PreviewMapping.Anchor>("anchor", default: .center,
                                                         summary: "point of the visible image area that the layer's same point is aligned to")
    static let offset = Parameter<Point>("offset", default: Point(x: 0, y: 0),
                                         summary: "move from the anchor, in frame units (+x right, +y down)")
    static let rotation = Parameter<Double>("rotation", default: 0, min: -360, max: 360,
                                            summary: "turn in degrees, clockwise, about the centre of the placed layer (placed unturned first, as a preview turns a caption); text stays vector and is drawn turned")
    static let opacity = Parameter<Double>("opacity", default: 1, min: 0, max: 1,
                                           summary: "the layer's opacity, multiplying its own alpha (a watermark at 0.3)")
    static let tile = Parameter<Bool>("tile", default: false,
                                      summary: "true: repeat the layer edge to edge over the whole base, from where anchor and offset put one copy")

    static let base = Port<Image>("base")
    static let layer = Port<Layer>("layer", accepts: [.layer, .image])

    public static let descriptor = StageDescriptor(
        name: "place",
        summary: "Positions a layer on an image as it was placed over an on-screen preview of it",
        inputs: [base.spec, layer.spec],
        output: .layer,
        parameters: [frame.spec, fit.spec, anchor.spec, offset.spec, rotation.spec, opacity.spec, tile.spec])

    /// The preview frame, or `nil` for the base's own size.
    public let frame: Size?
    public let fit: PreviewMapping.Fit
    public let anchor: PreviewMapping.Anchor
    public let offset: Point
    /// Degrees clockwise about the placed box's centre.
    public let rotation: Double
    /// The layer's opacity (1: as it is).
    public let opacity: Double
    /// Whether the layer repeats over the whole base.
    public let tile: Bool

    public init(parameters: Parameters) throws {
        if let frame = try parameters[Self.frame] {
            guard PreviewMapping.frame(frame, following: Size(width: 1, height: 1)) != nil else {
                throw StageError.invalidParameter("frame", "expected a size with width and height > 0 (or one of them 0: it follows the base's aspect), got \(frame)")
            }
            self.frame = frame
        } else {
            self.frame = nil
        }
        fit = try parameters[Self.fit]
        anchor = try parameters[Self.anchor]
        offset = try parameters[Self.offset]
        rotation = try parameters[Self.rotation]
        opacity = try parameters[Self.opacity]
        tile = try parameters[Self.tile]
        if tile && rotation.truncatingRemainder(dividingBy: 360) != 0 {
            throw StageError.invalidParameter("rotation", "a tiled layer covers the whole base and is not turned; give rotation or tile=true, not both")
        }
    }

    /// Only the base's size and side data are read: a streamed base is not held whole for this stage.
    public func imageAccess(for port: String) -> ImageAccess { port == Self.base.name ? .shape : .whole }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let base = try inputs.shape(Self.base)
        var layer = try inputs.layer(Self.layer)
        let baseSize = Size(width: Double(base.width), height: Double(base.height))
        guard let mapping = PreviewMapping(baseSize: baseSize, frame: frame ?? baseSize, fit: fit) else {
            throw StageError("port \"base\": cannot place a layer on an empty image (\(base.width)x\(base.height))")
        }
        if !base.metadata.orientationApplied && base.metadata.sourceOrientation != 1 {
            context.warn("the base image is not upright (EXIF orientation \(base.metadata.sourceOrientation) was not applied), but a preview shows it upright: the layer is placed on the pixels as stored")
        }
        if opacity < 1 { layer.content = FadedLayerContent(content: layer.content, opacity: opacity) }
        layer.placement = mapping.placement(layerSize: layer.content.size, anchor: anchor, offset: offset)
        layer.placement.rotation = rotation
        if tile {
            // The sheet covers the base; the placed copy keeps its place in it.
            try context.options.limits.check(width: base.width, height: base.height, making: "tiling the layer over the \(base.width)x\(base.height) base")
            let one = layer.placement
            let sheet = Size(width: baseSize.width / one.scaleX, height: baseSize.height / one.scaleY)
            layer = Layer(content: TiledLayerContent(tile: layer.content, size: sheet,
                                                     tileOrigin: Point(x: one.origin.x / one.scaleX, y: one.origin.y / one.scaleY)),
                          placement: Placement(origin: Point(x: 0, y: 0), scaleX: one.scaleX, scaleY: one.scaleY))
        } else if let cut = mapping.cutWarning(layerSize: layer.content.size, placement: layer.placement) {
            context.warn(cut)
        }
        return .layer(layer)
    }
}
