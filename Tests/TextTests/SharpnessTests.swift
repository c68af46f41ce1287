import SumiKit
import Testing
@testable import SumiText

/// Text laid out small and drawn at a large final scale is as sharp as text laid out at that size.
@Suite struct SharpnessTests {
    @Test func scaledLayerMatchesDirectRenderingNotUpscaledBitmap() throws {
        let text = "東京 Tokyo"
        let scale = 7.7
        let small = try TextTestSupport.content(["text": .string(text), "size": .number(17)])
        let direct = try TextTestSupport.content(["text": .string(text), "size": .number(17 * scale)])
        let scaled = try small.rasterize(scaleX: scale, scaleY: scale, phase: Point(x: 0, y: 0))
        let reference = try direct.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        // Line pitches are whole layout pixels: the 17 px layout's rounding (under the line) grows by
        // the scale, the 131 px layout's does not.
        #expect(abs(scaled.width - reference.width) <= 1 && abs(scaled.height - reference.height) <= Int(scale.rounded(.up)))
        let w = min(scaled.width, reference.width), h = min(scaled.height, reference.height)
        let ink = try #require(TextTestSupport.inkBounds(reference))
        let region = (x: ink.x.clamped(to: 0..<w), y: ink.y.clamped(to: 0..<h))
        let sharp = TextTestSupport.psnr(scaled, reference, region: region)

        let bitmap = try small.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let upscaled = Resampler(filter: .lanczos3).resize(bitmap, width: scaled.width, height: scaled.height)
        let blurry = TextTestSupport.psnr(upscaled, reference, region: region)
        TextTestSupport.savePNG(scaled, TextTestSupport.tempDirectory + "/tokyo-7.7x.png")
        TextTestSupport.savePNG(upscaled, TextTestSupport.tempDirectory + "/tokyo-upscaled.png")
        print("sharpness: vector \(sharp) dB, upscaled bitmap \(blurry) dB")
        #expect(sharp > 35, "PSNR against the direct rendering: \(sharp) dB")
        #expect(blurry < sharp - 10, "upscaled bitmap: \(blurry) dB, vector: \(sharp) dB")
    }

    @Test func subpixelPhaseShiftsInk() throws {
        let content = try TextTestSupport.content(["text": .string("I"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(40)])
        let a = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let b = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0.5, y: 0))
        #expect(a.width == Int(content.size.width.rounded(.up)) && b.width == Int((content.size.width + 0.5).rounded(.up)))
        #expect(a.height == b.height)
        // Alpha-weighted x centroid moves by half a pixel.
        func centroid(_ image: Image) -> Double {
            var sum = 0.0, total = 0.0
            for y in 0..<image.height { for x in 0..<image.width {
                let alpha = Double(image.pixels[(y * image.width + x) * 4 + 3])
                sum += alpha * Double(x); total += alpha
            } }
            return sum / total
        }
        #expect(abs(centroid(b) - centroid(a) - 0.5) < 0.1)
    }
}

/// Layers are drawn from several threads at once (faces are locked, results identical).
@Suite struct ConcurrencyTests {
    @Test func concurrentRasterisationGivesIdenticalPixels() async throws {
        let content = try TextTestSupport.content(["text": .string("Hello 東京 👋🏽 مرحبا नमस्ते"), "size": .number(24)])
        let reference = try content.rasterize(scaleX: 1.7, scaleY: 1.7, phase: Point(x: 0.3, y: 0.6))
        let results = try await withThrowingTaskGroup(of: PixelBuffer.self) { group in
            for _ in 0..<8 {
                group.addTask { try content.rasterize(scaleX: 1.7, scaleY: 1.7, phase: Point(x: 0.3, y: 0.6)).pixels }
            }
            var all: [PixelBuffer] = []
            for try await pixels in group { all.append(pixels) }
            return all
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == reference.pixels })
        // Layouts made concurrently agree too.
        let widths = try await withThrowingTaskGroup(of: Double.self) { group in
            for _ in 0..<6 {
                group.addTask { try TextTestSupport.content(["text": .string("Hello 東京 👋🏽 مرحبا नमस्ते"), "size": .number(24)]).size.width }
            }
            var all: [Double] = []
            for try await w in group { all.append(w) }
            return all
        }
        #expect(widths.allSatisfy { $0 == content.size.width })
    }
}
