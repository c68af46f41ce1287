import SumiKit

/// `flip` — mirrors an image left–right (`horizontal`), top–bottom (`vertical`) or both.
public struct FlipStage: Stage {
    public static let descriptor = StageDescriptor(
        name: "flip",
        summary: "Mirror an image horizontally (left-right), vertically (top-bottom) or both",
        inputs: [PortSpec(name: "in", accepts: .image)],
        output: .image,
        parameters: [
            ParameterSpec("direction", .string, default: .string("horizontal"), values: ["horizontal", "vertical", "both"],
                          summary: "horizontal swaps left and right, vertical swaps top and bottom"),
        ])

    let horizontal: Bool
    let vertical: Bool

    public init(parameters: Parameters) throws {
        let direction = parameters.string("direction") ?? "horizontal"
        horizontal = direction != "vertical"
        vertical = direction != "horizontal"
    }

    public func process(_ inputs: StageInputs, context: StageContext) throws -> Value {
        let image = try inputs.image("in")
        var out = PixelGeometry.flip(image, horizontal: horizontal, vertical: vertical)
        // side data: geometry mirrored (horizontal: x → width - x - w; vertical: y → height - y - h);
        // pass-through bytes no longer match.
        out.metadata = image.metadata.derived
        return .image(out)
    }
}
