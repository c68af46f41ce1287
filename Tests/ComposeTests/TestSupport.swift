import Foundation
import SumiKit
import SumiCompose
import Testing

/// `make check` refuses outside programs (`OutsidePrograms`): a test that would start `program`
/// fails there with a message naming it, and the program is not started.
func refuseOutsideProgramInCheck(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    guard ProcessInfo.processInfo.environment[OutsidePrograms.variable] == "1" else { return }
    let refusal = OutsidePrograms.Refused(starting: program)
    Issue.record(Comment(rawValue: refusal.description), sourceLocation: sourceLocation)
    throw refusal
}

/// Shared helpers for the compose tests.
enum TestSupport {
    /// An opaque image of one colour.
    static func solid(_ width: Int, _ height: Int, _ color: Color) -> Image {
        Image(width: width, height: height, fill: color)
    }

    /// A deterministic pseudo-random premultiplied image (alpha ≥ `minAlpha`).
    static func noise(_ width: Int, _ height: Int, seed: UInt32, minAlpha: UInt8 = 255) -> Image {
        var state = seed &* 2654435761 | 1
        func next() -> UInt8 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state >> 8)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in Swift.stride(from: 0, to: pixels.count, by: 4) {
            let span = 256 - Int(minAlpha)
            let a = UInt8(Int(minAlpha) + Int(next()) % span)
            pixels[i + 3] = a
            for c in 0..<3 { pixels[i + c] = UInt8(Int(next()) * Int(a) / 255) }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// The smallest rectangle (x0, y0, x1, y1; x1, y1 exclusive) of pixels that differ from `base`.
    static func changedBox(_ image: Image, from base: Image) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        image.pixels.withUnsafeBufferPointer { a in
            base.pixels.withUnsafeBufferPointer { b in
                for y in 0..<image.height {
                    let row = y * image.width * 4
                    var x = 0
                    while x < image.width {
                        let i = row + x * 4
                        if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3] {
                            x0 = min(x0, x); x1 = max(x1, x + 1); y0 = min(y0, y); y1 = max(y1, y + 1)
                        }
                        x += 1
                    }
                }
            }
        }
        return x0 == Int.max ? nil : (x0, y0, x1, y1)
    }

    static func placed(_ value: Value) throws -> Layer {
        guard case .layer(let layer) = value else { throw StageError("expected a layer, got \(value.kind)") }
        return layer
    }

    /// `place` then `blend` (over), the caption chain without the codecs.
    static func placeAndBlend(base: Image, layer: Value, place parameters: [String: ParamValue],
                              blend blendParameters: [String: ParamValue] = [:]) throws -> (Layer, Image) {
        let placed = try placed(StageHarness(PlaceStage.self).run(parameters, inputs: ["base": .image(base), "layer": layer]))
        let out = try StageHarness(BlendStage.self).runImage(blendParameters,
                                                             inputs: ["base": .image(base), "layer": .layer(placed)])
        return (placed, out)
    }
}
