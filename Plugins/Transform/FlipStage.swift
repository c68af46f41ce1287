import SumiKit

/// `flip` — mirrors an image left–right (`horizontal`), top–bottom (`vertical`) or both.
public struct FlipStage: Stage {
    public enum Direction: String, ParameterChoice { case horizontal, vertical, both }

    static let direction = Parameter<Direction>("direction", default: .horizontal,
                                                summary: "horizontal swaps left and right, vertical swaps top and bottom")

    public static let descriptor = StageDescriptor(
        name: "flip",
        summary: "Mirror an image horizontally (left-right), vertically (top-bottom) or both",
        inputs: [PortSpec(name: "in", accepts: .image)],
        output: .image,
        effect: .geometry,
        parameters: [direction.spec])

    let horizontal: Bool
    let vertical: Bool

    public init(parameters: Parameters) throws {
        let direction = try parameters[Self.direction]
        horizontal = direction != .vertical
        vertical = direction != .horizontal
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image("in")
        var out = PixelGeometry.flip(image, horizontal: horizontal, vertical: vertical)
        var transform = GeometryTransform.crop(x: 0, y: 0, width: image.width, height: image.height)
        if horizontal { transform = transform.then(.flipHorizontal(width: image.width, height: image.height)) }
        if vertical { transform = transform.then(.flipVertical(width: image.width, height: image.height)) }
        out.metadata = image.metadata.applying(.geometry(transform))
        return .image(out)
    }
}
