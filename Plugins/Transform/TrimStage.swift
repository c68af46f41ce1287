import SumiKit

/// `trim` — cuts away uniform borders: the rows and columns at the edges whose every pixel is within
/// `tolerance` of the `background` colour (by default the top-left pixel's), as ImageMagick's
/// `-trim` and libvips' `find_trim` + `crop` do. The box kept is given in the run report
/// (`sumi run --json`: the stage's `details`, `{"x", "y", "width", "height", "trimmed"}`).
///
/// The box is known only once the last row has been read, so the stage reads its input whole (4
/// bytes a pixel, the input the run's pixel limit already allowed), then copies the box's rows out.
/// Its output is never larger than its input; it is checked against the run's limits before a row
/// leaves. An image that is all background is left as it is, with a warning.
///
/// Pixels are compared as stored (premultiplied RGBA, each of the four channels within
/// `tolerance` levels). libvips smooths the image with a 3×3 median before it compares, so a line
/// thinner than two pixels is noise to `find_trim` and content here.
public struct TrimStage: Stage, RowStage {
    static let background = Parameter<Color?>("background",
                                              summary: "the border colour to cut (default: the top-left pixel's colour)")
    static let tolerance = Parameter<Int>("tolerance", default: 10, min: 0, max: 255,
                                          summary: "how far, in 8-bit levels of any channel, a pixel may differ from the background and still be border")

    static let input = Port<Image>("in")

    public static let descriptor = StageDescriptor(
        name: "trim",
        summary: "Cut away uniform borders (of a colour, or the top-left pixel's), reporting the box kept",
        inputs: [input.spec],
        output: .image,
        effect: .geometry,
        parameters: [background.spec, tolerance.spec])

    let background: Color?
    let tolerance: Int

    public init(parameters: Parameters) throws {
        background = try parameters[Self.background]
        tolerance = try parameters[Self.tolerance]
    }

    /// The input is read as rows (collected whole, see above).
    public func imageAccess(for port: String) -> ImageAccess { .rows }

    public func process(_ inputs: StageInputs, context: StageContext, output: RowStream?) throws -> Value? {
        let output = try outputStream(output)
        let image = try inputs.rows(Self.input).image()
        let found = box(of: image)
        let (x, y, w, h) = found ?? (0, 0, image.width, image.height)
        if found == nil, image.width > 0, image.height > 0 {
            context.warn("the \(image.width)x\(image.height) image is all background: nothing to trim")
        }
        try context.options.limits.check(width: w, height: h, making: "trimming \(image.width)x\(image.height)")
        context.report(.object([("x", .number(Double(x))), ("y", .number(Double(y))),
                                ("width", .number(Double(w))), ("height", .number(Double(h))),
                                ("trimmed", .bool(w != image.width || h != image.height))]))
        try CropStage.copy(RowStream.whole(image), x: x, y: y, width: w, height: h, into: output)
        return nil
    }

    /// The smallest box holding every pixel that is not border, or nil when there is none.
    func box(of image: Image) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard image.width > 0, image.height > 0 else { return nil }
        let corner = image.pixel(x: 0, y: 0)
        let (r, g, b, a) = background?.premultiplied ?? (corner.r, corner.g, corner.b, corner.a)
        let reference = [Int(r), Int(g), Int(b), Int(a)], tolerance = self.tolerance
        var left = image.width, right = -1, top = image.height, bottom = -1
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            func isBorder(_ p: UnsafePointer<UInt8>) -> Bool {
                abs(Int(p[0]) - reference[0]) <= tolerance && abs(Int(p[1]) - reference[1]) <= tolerance
                    && abs(Int(p[2]) - reference[2]) <= tolerance && abs(Int(p[3]) - reference[3]) <= tolerance
            }
            for y in 0..<image.height {
                let row = base + y * image.stride
                guard let first = (0..<image.width).first(where: { !isBorder(row + $0 * 4) }) else { continue }
                let last = (first..<image.width).reversed().first(where: { !isBorder(row + $0 * 4) }) ?? first
                left = min(left, first); right = max(right, last)
                top = min(top, y); bottom = y
            }
        }
        guard right >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }
}
