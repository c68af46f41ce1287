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

    static let base = Port<Image>("base")
    static let layer = Port<Layer>("layer")

    public static let descriptor = StageDescriptor(
        name: "place",
        summary: "Positions a layer on an image as it was placed over an on-screen preview of it",
        inputs: [base.spec, layer.spec],
        output: .layer,
        parameters: [frame.spec, fit.spec, anchor.spec, offset.spec, rotation.spec])

    /// The preview frame, or `nil` for the base's own size.
    public let frame: Size?
    public let fit: PreviewMapping.Fit
    public let anchor: PreviewMapping.Anchor
    public let offset: Point
    /// Degrees clockwise about the placed box's centre.
    public let rotation: Double

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
        layer.placement = mapping.placement(layerSize: layer.content.size, anchor: anchor, offset: offset)
        layer.placement.rotation = rotation
        if let cut = mapping.cutWarning(layerSize: layer.content.size, placement: layer.placement) { context.warn(cut) }
        return .layer(layer)
    }
}
