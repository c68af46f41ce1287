import Foundation
import SumiKit
import Testing
@testable import SumiText

/// A turned caption's rounded box is the turned rounded rectangle: measured per pixel against the
/// exact shape (signed distances of each pixel centre, mapped back into layout units, to the outer
/// and inner rounded rectangles), every pixel clear of an edge by a pixel has exactly the colour
/// that region has — no notch of fill in the border, no gap where an arc meets a straight edge.
@Suite struct TurnedCornerTests {
    static let blue = Color(red: 0, green: 0, blue: 255)
    static let yellow = Color(red: 255, green: 255, blue: 0)

    /// Signed distance from `p` to a rounded rectangle (negative inside).
    static func distance(_ p: Point, to rect: Rect, radius: Double) -> Double {
        let hx = rect.width / 2, hy = rect.height / 2
        let qx = abs(p.x - (rect.x + hx)) - (hx - radius), qy = abs(p.y - (rect.y + hy)) - (hy - radius)
        return (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot() + min(max(qx, qy), 0) - radius
    }

    /// Renders the caption turned by `degrees` at `scale` and returns the pixels that break the
    /// shape, by region.
    func faults(degrees: Double, scale: Double, background: Color) throws -> [String: Int] {
        let content = try TextTestSupport.content(["text": .string("Turned corners"), "font": .string(TextTestSupport.dejaVu),
                                                   "size": .number(17), "color": .color(.transparent),
                                                   "background": .color(background), "border": .number(3),
                                                   "border-color": .color(Self.blue), "corner-radius": .number(12),
                                                   "padding": .number(10)])
        #expect(content.inkOverflow == .zero)
        let layer = Layer(content: content, placement: Placement(origin: Point(x: 40.3, y: 30.6), scaleX: scale, scaleY: scale,
                                                                 rotation: degrees))
        let (image, x0, y0) = try layer.rendered()
        let toLayout = try #require(layer.placement.transform(contentSize: content.size).inverted)
        let outer = Rect(x: 0, y: 0, width: content.boxSize.width, height: content.boxSize.height)
        let inner = Rect(x: 3, y: 3, width: outer.width - 6, height: outer.height - 6)
        // Clear of an edge by a pixel; by a pixel and a half where quarter turns put the box's edges
        // on whole pixels (moved by up to half a pixel, the border rounded down to whole pixels).
        let m = degrees.truncatingRemainder(dividingBy: 90) == 0 ? 1.5 : 1
        var faults: [String: Int] = [:]
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = toLayout.apply(Point(x: Double(x0 + x) + 0.5, y: Double(y0 + y) + 0.5))
                // Distances in pixels (the scale is the same both ways).
                let dOuter = Self.distance(p, to: outer, radius: 12) * scale
                let dInner = Self.distance(p, to: inner, radius: 9) * scale
                let c = image.color(x: x, y: y), a = image.pixels[(y * image.width + x) * 4 + 3]
                if dOuter >= m {
                    if a != 0 { faults["outside", default: 0] += 1 }
                } else if dOuter <= -m && dInner >= m {
                    if c != Self.blue { faults["border", default: 0] += 1 }
                } else if dInner <= -m {
                    if background.alpha > 0 ? c != background : a != 0 { faults["inside", default: 0] += 1 }
                } else if dInner >= m && c.red > 0 {
                    faults["fill outside the inner edge", default: 0] += 1
                }
            }
        }
        return faults
    }

    @Test func turnedRoundedBoxIsTheTurnedShape() throws {
        for degrees in [0.0, 15, 30, 45, 72, 180, 200, -30] {
            for scale in [1.0, 2.5] {
                let filled = try faults(degrees: degrees, scale: scale, background: Self.yellow)
                #expect(filled.isEmpty, "\(degrees)° at \(scale)x, filled: \(filled)")
                let hollow = try faults(degrees: degrees, scale: scale, background: .transparent)
                #expect(hollow.isEmpty, "\(degrees)° at \(scale)x, transparent inside: \(hollow)")
            }
        }
    }
}
