import Foundation
import SumiKit
import Testing
@testable import SumiText

/// Turned boxes compared with ImageMagick turning the upright box (`make test`).
@Suite struct TurnedCornerReferenceTests {
    /// Against an outside reference: the upright box at the same scale, turned by ImageMagick
    /// (`-distort SRT`, about the same centre), matches the box Sumi draws turned in every corner.
    @Test func turnedCornersMatchImageMagickTurningTheUprightBox() throws {
        let content = try TextTestSupport.content(["text": .string("Turned corners"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(17), "color": .color(.transparent),
                                                   "background": .color(TurnedCornerTests.yellow), "border": .number(3),
                                                   "border-color": .color(TurnedCornerTests.blue), "corner-radius": .number(12),
                                                   "padding": .number(10), "width": .number(140)])
        // Whole-pixel edges upright (a 166-unit box at 2×, from a whole pixel), so the reference
        // is not moved by snapping.
        #expect(content.boxSize == Size(width: 166, height: content.boxSize.height.rounded()))
        let scale = 2.0, origin = Point(x: 40, y: 30)
        let (upright, ux, uy) = try Layer(content: content, placement: Placement(origin: origin, scaleX: scale, scaleY: scale))
            .rendered()
        let uprightFile = TextTestSupport.tempDirectory + "/upright-corners-\(UUID().uuidString).png"
        TextTestSupport.savePNG(upright, uprightFile)
        defer { try? FileManager.default.removeItem(atPath: uprightFile) }
        let centre = Point(x: origin.x + content.size.width * scale / 2, y: origin.y + content.size.height * scale / 2)
        for degrees in [15.0, 30] {
            let layer = Layer(content: content, placement: Placement(origin: origin, scaleX: scale, scaleY: scale, rotation: degrees))
            let (turned, tx, ty) = try layer.rendered()
            let reference = try TextTestSupport.runData("/usr/bin/convert", [
                uprightFile, "-virtual-pixel", "white", "-define", "distort:viewport=\(turned.width)x\(turned.height)+0+0",
                "-distort", "SRT", "\(centre.x - Double(ux)),\(centre.y - Double(uy)) 1 \(degrees) "
                    + "\(centre.x - Double(tx)),\(centre.y - Double(ty))", "-depth", "8", "rgb:-"])
            try #require(reference.count == turned.width * turned.height * 3)
            // Each corner: a square around its arc's centre, reaching past the box by a few pixels.
            let box = content.boxSize, r = 12.0, reach = Int(r * scale) + 4
            let toPixels = layer.placement.transform(contentSize: content.size).then(.translation(-Double(tx), -Double(ty)))
            for corner in [Point(x: r, y: r), Point(x: box.width - r, y: r), Point(x: r, y: box.height - r),
                           Point(x: box.width - r, y: box.height - r)] {
                let c = toPixels.apply(corner)
                var sum = 0.0, n = 0.0
                for y in max(0, Int(c.y) - reach)..<min(turned.height, Int(c.y) + reach) {
                    for x in max(0, Int(c.x) - reach)..<min(turned.width, Int(c.x) + reach) {
                        let i = y * turned.width + x, a = Int(turned.pixels[i * 4 + 3])
                        for k in 0..<3 {
                            let ours = min(255, Int(turned.pixels[i * 4 + k]) + 255 - a)
                            let d = Double(ours - Int(reference[i * 3 + k]))
                            sum += d * d
                            n += 1
                        }
                    }
                }
                let psnr = 10 * log10(255 * 255 / max(sum / n, 1e-9))
                print("corner \(corner) at \(degrees)°: \(psnr) dB against ImageMagick's turn of the upright box")
                // About 36 dB (ImageMagick's resampler softens edges by about a pixel); 19 dB when
                // fill showed through the border at the corners.
                #expect(psnr > 30, "corner \(corner) at \(degrees)°: \(psnr) dB")
            }
        }
    }
}
