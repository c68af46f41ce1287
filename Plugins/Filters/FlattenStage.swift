import SumiKit

/// `flatten` — lays the image over a `background` colour (source-over): what a JPEG needs from a
/// translucent PNG. With an opaque background the result is opaque.
public struct FlattenStage: Stage, BandStage {
    static let background = Parameter<Color>("background", default: .white, summary: "the colour under the image")

    public static let descriptor = StageDescriptor(
        name: "flatten",
        summary: "Lay the image over a background colour (alpha composited away)",
        inputs: [Port<Image>("in").spec],
        output: .image,
        effect: .pixels,
        parameters: [background.spec])

    let background: Color

    public init(parameters: Parameters) throws {
        background = try parameters[Self.background]
    }

    public func bands(over shape: ImageShape, inputs: StageInputs, context: StageContext) throws -> BandPlan {
        var metadata = shape.metadata.applying(.pixels)
        metadata.knownOpaque = background.alpha == 255 || shape.metadata.knownOpaque
        let under = Self.premultiplied(background)
        return BandPlan(metadata: metadata) { input, output in
            for y in output.rows { Self.flatten(input.row(y), over: under, into: output.row(y)) }
        }
    }

    static func premultiplied(_ colour: Color) -> SIMD4<Int32> {
        let p = colour.premultiplied
        return SIMD4(Int32(p.0), Int32(p.1), Int32(p.2), Int32(p.3))
    }

    /// Source-over on premultiplied pixels: `pixel + under·(255 − alpha)/255`, rounded.
    static func flatten(_ source: UnsafeBufferPointer<UInt8>, over under: SIMD4<Int32>, into target: UnsafeMutableBufferPointer<UInt8>) {
        let src = UnsafeRawPointer(source.baseAddress!), dst = UnsafeMutableRawPointer(target.baseAddress!)
        for offset in stride(from: 0, to: source.count, by: 4) {
            let pixel = SIMD4<Int32>(truncatingIfNeeded: src.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self))
            let uncovered = 255 &- pixel.w
            // x / 255 rounded, for x up to 255², by shifts: (x + 128 + (x + 128) >> 8) >> 8.
            let scaled = under &* uncovered &+ 128
            let out = pixel &+ ((scaled &+ (scaled &>> 8)) &>> 8)
            dst.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: out), toByteOffset: offset, as: SIMD4<UInt8>.self)
        }
    }
}
