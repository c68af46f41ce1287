import Testing
@testable import SumiKit

/// The resampler's vector loops against its scalar ones in the same build: the same bytes for every
/// filter, shrinking and enlarging, odd widths (a last pixel or row without a pair) and one-pixel
/// sides, on premultiplied pixels with every alpha (so the clamp to the alpha is exercised).
struct ResamplerVectorTests {
    /// A premultiplied image of pseudo-random pixels (a fixed linear congruential sequence).
    static func noise(width: Int, height: Int) -> Image {
        var state: UInt32 = 12345
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = next()
            for c in 0..<3 { pixels[i + c] = UInt8(UInt16(next()) * UInt16(alpha) / 255) }
            pixels[i + 3] = alpha
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    @Test(arguments: ResampleFilter.allCases)
    func vectorLoopsGiveTheScalarLoopsBytes(filter: ResampleFilter) {
        let image = Self.noise(width: 97, height: 61)
        for (width, height) in [(41, 23), (150, 99), (96, 60), (1, 61), (97, 1), (13, 200)] {
            var scalar = Resampler(filter: filter)
            scalar.vectorLoops = false
            var vector = Resampler(filter: filter)
            vector.vectorLoops = true
            let expected = scalar.resize(image, width: width, height: height)
            let got = vector.resize(image, width: width, height: height)
            #expect(got.width == width && got.height == height)
            #expect(got.pixels == expected.pixels, "\(filter) \(width)x\(height)")
        }
    }

    @Test func everyFiltersWeightsFitTheVectorLoops() {
        for filter in ResampleFilter.allCases {
            for (source, destination) in [(3000, 512), (750, 512), (97, 1), (10, 4000)] {
                let c = Resampler.coefficients(source: source, destination: destination, filter: filter, vector: true)
                #expect(c.narrow != nil, "\(filter) \(source) -> \(destination)")
            }
        }
    }
}
