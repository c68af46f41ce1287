import Testing
import SumiKit
import SumiCompose

/// A preview frame with a side of 0 follows the image's shape, and a layer that reaches beyond the
/// visible image is measured (sides and base pixels), worked out by hand as `PlacementCase` does.
@Suite struct PreviewFrameTests {
    @Test func aZeroSideFollowsTheImage() throws {
        // A portrait phone photo in a preview 390 wide: 390 × 4000/3000 = 520 tall, 3000/390 px a unit.
        let portrait = try #require(PreviewMapping(baseSize: Size(width: 3000, height: 4000), frame: Size(width: 390, height: 0), fit: .contain))
        #expect(portrait.frame == Size(width: 390, height: 520))
        #expect(abs(portrait.scaleX - 3000.0 / 390) < 1e-12 && portrait.scaleX == portrait.scaleY)
        #expect(portrait.displayedImage == Rect(x: 0, y: 0, width: 390, height: 520))
        // A height given, the width follows.
        let landscape = try #require(PreviewMapping(baseSize: Size(width: 3000, height: 2000), frame: Size(width: 0, height: 260), fit: .contain))
        #expect(landscape.frame == Size(width: 390, height: 260))
        for bad in [Size(width: 0, height: 0), Size(width: -1, height: 0), Size(width: .infinity, height: 0)] {
            #expect(PreviewMapping(baseSize: Size(width: 30, height: 20), frame: bad, fit: .contain) == nil, "\(bad)")
        }
    }

    @Test func aLayerBeyondTheImageIsMeasured() throws {
        // 400×600 shown in 390×260: 600/260 px a unit, the image 173.3 units wide. A 214×34 layer
        // centred is 493.8 px wide on a 400 px image: (493.8 − 400) / 2 = 46.9 px beyond each side.
        let mapping = try #require(PreviewMapping(baseSize: Size(width: 400, height: 600), frame: Size(width: 390, height: 260), fit: .contain))
        let layer = Size(width: 214, height: 34)
        let placement = mapping.placement(layerSize: layer, anchor: .center, offset: Point(x: 0, y: 0))
        let cut = mapping.overhang(layerSize: layer, placement: placement)
        let beyond = (214 * 600.0 / 260 - 400) / 2
        #expect(cut.map(\.side) == ["left", "right"])
        #expect(cut.allSatisfy { abs($0.pixels - beyond) < 1e-9 }, "\(cut)")
        let warning = try #require(mapping.cutWarning(layerSize: layer, placement: placement))
        #expect(warning.contains("(left by 47 px, right by 47 px)") && warning.contains("shows the 400x600 image as 173x260"), "\(warning)")
        // Moved 100 units down it also passes the bottom; turned a quarter, it fits.
        let low = mapping.placement(layerSize: layer, anchor: .center, offset: Point(x: 0, y: 120))
        #expect(mapping.overhang(layerSize: layer, placement: low).map(\.side) == ["left", "right", "bottom"])
        // Turned a quarter, it is 34 units wide (78.5 px) and 214 tall (493.8 px, less than 600): it fits.
        #expect(mapping.overhang(layerSize: layer, placement: placement, rotation: 90).isEmpty)
        // With a frame of the image's shape the same layer is 214 × 400/390 px wide: it fits.
        let fitted = try #require(PreviewMapping(baseSize: Size(width: 400, height: 600), frame: Size(width: 390, height: 0), fit: .contain))
        let inside = fitted.placement(layerSize: layer, anchor: .center, offset: Point(x: 0, y: 0))
        #expect(fitted.cutWarning(layerSize: layer, placement: inside) == nil)
    }
}
