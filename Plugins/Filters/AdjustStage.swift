import SumiKit

/// `adjust` — colour adjustments, applied in this order: brightness, contrast, saturation, hue,
/// grayscale, tint, gamma, invert (`ColourAdjustment` holds the arithmetic). Alpha never changes.
public struct AdjustStage: Stage, BandStage {
    static let brightness = Parameter<Double>("brightness", default: 1, min: 0, max: 10,
                                              summary: "values times this factor, 1 unchanged (Pillow's ImageEnhance.Brightness)")
    static let contrast = Parameter<Double>("contrast", default: 1, min: 0, max: 10,
                                            summary: "(v − 128)·factor + 128, 1 unchanged, 0 grey (CSS contrast())")
    static let saturation = Parameter<Double>("saturation", default: 1, min: 0, max: 10,
                                              summary: "blend with the Rec. 601 grey: 0 grey, 1 unchanged, above 1 more colourful (Pillow's ImageEnhance.Color)")
    static let hue = Parameter<Double>("hue", default: 0, min: -360, max: 360,
                                       summary: "rotate hue by these degrees (CSS hue-rotate())")
    static let grayscale = Parameter<Bool>("grayscale", default: false, summary: "true: Rec. 601 grey (saturation 0)")
    static let tint = Parameter<Color?>("tint", summary: "multiply each channel by this colour's (a colour filter)")
    static let gamma = Parameter<Double>("gamma", default: 1, min: 0, max: 10, minExclusive: true,
                                         summary: "255·(v/255)^(1/gamma) on straight values, above 1 brightens (ImageMagick -gamma)")
    static let invert = Parameter<Bool>("invert", default: false, summary: "true: 255 − v, the negative")

    public static let descriptor = StageDescriptor(
        name: "adjust",
        summary: "Colour adjustments on sRGB values: brightness, contrast, saturation, hue, grayscale, tint, gamma, invert",
        inputs: [Port<Image>("in").spec],
        output: .image,
        effect: .pixels,
        parameters: [brightness.spec, contrast.spec, saturation.spec, hue.spec, grayscale.spec, tint.spec, gamma.spec,
                     invert.spec])

    let adjustment: ColourAdjustment

    public init(parameters: Parameters) throws {
        var adjustment = ColourAdjustment.identity
        let brightness = try parameters[Self.brightness], contrast = try parameters[Self.contrast]
        let saturation = try parameters[Self.saturation], hue = try parameters[Self.hue]
        if brightness != 1 { adjustment = adjustment.brightness(Float(brightness)) }
        if contrast != 1 { adjustment = adjustment.contrast(Float(contrast)) }
        if saturation != 1 { adjustment = adjustment.saturation(Float(saturation)) }
        if hue != 0 { adjustment = adjustment.hue(hue) }
        if try parameters[Self.grayscale] { adjustment = adjustment.saturation(0) }
        if let tint = try parameters[Self.tint] {
            guard tint.alpha == 255 else { throw StageError.invalidParameter("tint", "expected an opaque colour, got \(tint)") }
            adjustment = adjustment.tint(red: tint.red, green: tint.green, blue: tint.blue)
        }
        adjustment = adjustment.gamma(try parameters[Self.gamma])
        adjustment.invert = try parameters[Self.invert]
        self.adjustment = adjustment
    }

    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        // Alpha is kept, so an opaque image stays opaque.
        var metadata = shape.metadata.applying(.pixels)
        metadata.knownOpaque = shape.metadata.knownOpaque
        let adjustment = adjustment, tables = adjustment.opaqueTables()
        return BandPlan(metadata: metadata) { input, output in
            for y in output.rows { adjustment.apply(input.row(y), into: output.row(y), tables: tables) }
        }
    }
}
