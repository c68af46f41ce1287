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
        #expect(abs(scaled.width - reference.width) <= 1 && abs(scaled.height - reference.height) <= 1)
        let w = min(scaled.width, reference.width), h = min(scaled.height, reference.height)
        let ink = try #require(TextTestSupport.inkBounds(reference))
        let region = (x: ink.x.clamped(to: 0..<w), y: ink.y.clamped(to: 0..<h))
        let sharp = TextTestSupport.psnr(scaled, reference, region: region)

        let bitmap = try small.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let upscaled = Resampler(filter: .lanczos3).resize(bitmap, width: scaled.width, height: scaled.height)
        let blurry = TextTestSupport.psnr(upscaled, reference, region: region)
        try TextTestSupport.savePNG(scaled, TextTestSupport.tempDirectory + "/tokyo-7.7x.png")
        try TextTestSupport.savePNG(upscaled, TextTestSupport.tempDirectory + "/tokyo-upscaled.png")
        #expect(sharp > 35, "PSNR against the direct rendering: \(sharp) dB")
        #expect(blurry < sharp - 10, "upscaled bitmap: \(blurry) dB, vector: \(sharp) dB")
    }

    @Test func subpixelPhaseShiftsInk() throws {
        let content = try TextTestSupport.content(["text": .string("I"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(40)])
        let a = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0, y: 0))
        let b = try content.rasterize(scaleX: 1, scaleY: 1, phase: Point(x: 0.5, y: 0))
        #expect(a.width == b.width && a.height == b.height)
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
