import SumiKit

/// `flip` — mirrors an image left–right (`horizontal`), top–bottom (`vertical`) or both.
public struct FlipStage: Stage, RowStage {
    public enum Direction: String, ParameterChoice { case horizontal, vertical, both }

    static let direction = Parameter<Direction>("direction", default: .horizontal,
                                                summary: "horizontal swaps left and right, vertical swaps top and bottom")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "flip",
        summary: "Mirror an image horizontally (left-right), vertically (top-bottom) or both",
        inputs: [input.spec],
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

    func transform(width: Int, height: Int) -> GeometryTransform {
        var transform = GeometryTransform.crop(x: 0, y: 0, width: width, height: height)
        if horizontal { transform = transform.then(.flipHorizontal(width: width, height: height)) }
        if vertical { transform = transform.then(.flipVertical(width: width, height: height)) }
        return transform
    }

    /// The input is read as rows.
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    /// The streamed path: a horizontal flip mirrors each row as it passes; a vertical one needs the
    /// last row first, so it collects the image (the engine buffers for this stage alone).
    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let input = try inputs.rows(Self.input)
        guard !vertical else {
            let image = try input.image()
            var out = PixelGeometry.flip(image, horizontal: horizontal, vertical: true)
            out.metadata = image.metadata.applying(.geometry(transform(width: image.width, height: image.height)))
            try output.deliver(out)
            return nil
        }
        let shape = try input.waitForStart()
        try output.begin(ImageShape(width: shape.width, height: shape.height,
                                    metadata: shape.metadata.applying(.geometry(transform(width: shape.width, height: shape.height)))))
        let w = shape.width
        try RowCopy.run(input, rows: 0..<shape.height, into: output) { source, destination in
            source.withMemoryRebound(to: UInt32.self) { from in
                destination.withMemoryRebound(to: UInt32.self) { to in
                    for x in 0..<w { to[w - 1 - x] = from[x] }
                }
            }
        }
        return nil
    }
}
