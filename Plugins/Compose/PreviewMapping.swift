#if canImport(Glibc)
import Glibc
#endif
import SumiKit

/// How a point or a layer positioned over an on-screen preview of an image maps onto the image's own
/// pixels: the geometry behind placing a caption exactly where it appeared in the preview.
///
/// The preview is a `frame` (in frame units — points, CSS pixels, whatever the UI used) in which the
/// image is shown with a `Fit`:
/// - `contain`: scaled uniformly to fit inside the frame and centred (letterboxed);
/// - `cover`: scaled uniformly to fill the frame and centred (the overflow is cropped);
/// - `fill`: stretched to the frame, with separate horizontal and vertical factors.
///
/// A layer is positioned like a SwiftUI overlay with an alignment and an offset: the `Anchor` names a
/// point of the *visible image area* (the displayed image for `contain` and `fill`, the frame itself for
/// `cover`, since that is all of the image one can see), the layer's own point of the same name goes
/// there (its centre to `center`, its top-left corner to `top-left`), and the layer then moves by
/// `offset` frame units (+x right, +y down). Layer sizes are in frame units and grow with the image:
/// one frame unit is `scaleX × scaleY` base pixels.
///
/// Everything is computed in `Double` directly in base pixels (the anchor is found as the centre of
/// the visible area plus a fraction of its extent), so common cases map exactly: a 3000×2002 photo in
/// a 390×260 frame with `contain` gives a scale of exactly 2002 / 260 = 7.7 and puts `center` at
/// exactly (1500, 1001). The image is the image as displayed — upright, after EXIF orientation.
public struct PreviewMapping: Sendable, Hashable {
    /// How the image was shown in the frame.
    public enum Fit: String, Sendable, Hashable, CaseIterable, ParameterChoice {
        case contain, cover, fill
    }

    /// A point of a rectangle, named as in SwiftUI's `Alignment`.
    public enum Anchor: String, Sendable, Hashable, CaseIterable, ParameterChoice {
        case center
        case topLeft = "top-left", top, topRight = "top-right"
        case left, right
        case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

        /// The anchor as fractions of a rectangle's width and height from its top-left corner.
        public var unitPoint: Point {
            switch self {
            case .topLeft: Point(x: 0, y: 0)
            case .top: Point(x: 0.5, y: 0)
            case .topRight: Point(x: 1, y: 0)
            case .left: Point(x: 0, y: 0.5)
            case .center: Point(x: 0.5, y: 0.5)
            case .right: Point(x: 1, y: 0.5)
            case .bottomLeft: Point(x: 0, y: 1)
            case .bottom: Point(x: 0.5, y: 1)
            case .bottomRight: Point(x: 1, y: 1)
            }
        }
    }

    /// The image's size in pixels (upright).
    public let baseSize: Size
    /// The preview frame's size in frame units.
    public let frame: Size
    public let fit: Fit
    /// Base pixels per frame unit, horizontally.
    public let scaleX: Double
    /// Base pixels per frame unit, vertically (equal to `scaleX` except for `fill`).
    public let scaleY: Double

    /// A mapping for an image of `baseSize` pixels shown in `frame` with `fit`; `nil` unless both
    /// sizes are finite and positive. One side of the frame may be 0: it follows the image's aspect
    /// (`390x0` is a preview 390 units wide showing the whole image, landscape or portrait, as an
    /// editor sizes its preview to the photo).
    public init?(baseSize: Size, frame: Size, fit: Fit) {
        guard let frame = Self.frame(frame, following: baseSize) else { return nil }
        self.baseSize = baseSize
        self.frame = frame
        self.fit = fit
        let kx = baseSize.width / frame.width, ky = baseSize.height / frame.height
        switch fit {
        case .contain: (scaleX, scaleY) = (Swift.max(kx, ky), Swift.max(kx, ky))
        case .cover: (scaleX, scaleY) = (Swift.min(kx, ky), Swift.min(kx, ky))
        case .fill: (scaleX, scaleY) = (kx, ky)
        }
    }

    /// `frame` with a side of 0 given the image's aspect; nil unless the image's sides and at least
    /// one of the frame's are finite and positive (and neither is negative).
    public static func frame(_ frame: Size, following baseSize: Size) -> Size? {
        guard [baseSize.width, baseSize.height].allSatisfy({ $0.isFinite && $0 > 0 }),
              [frame.width, frame.height].allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        switch (frame.width > 0, frame.height > 0) {
        case (true, true): return frame
        case (true, false): return Size(width: frame.width, height: frame.width * baseSize.height / baseSize.width)
        case (false, true): return Size(width: frame.height * baseSize.width / baseSize.height, height: frame.height)
        case (false, false): return nil
        }
    }

    /// The image as displayed, in frame units (it extends beyond the frame for `cover`).
    public var displayedImage: Rect {
        let w = baseSize.width / scaleX, h = baseSize.height / scaleY
        return Rect(x: (frame.width - w) / 2, y: (frame.height - h) / 2, width: w, height: h)
    }

    /// The part of the image one can see in the preview, in frame units.
    public var visibleArea: Rect {
        switch fit {
        case .contain, .fill: displayedImage
        case .cover: Rect(x: 0, y: 0, width: frame.width, height: frame.height)
        }
    }

    /// The visible area in base pixels (it may extend beyond the image only through rounding).
    public var visibleAreaInBase: Rect {
        let (w, h): (Double, Double) = switch fit {
        case .contain, .fill: (baseSize.width, baseSize.height)
        case .cover: (frame.width * scaleX, frame.height * scaleY)
        }
        return Rect(x: (baseSize.width - w) / 2, y: (baseSize.height - h) / 2, width: w, height: h)
    }

    /// The base pixel position of a point given in frame coordinates.
    public func basePoint(fromFrame point: Point) -> Point {
        let shown = displayedImage
        return Point(x: (point.x - shown.x) * scaleX, y: (point.y - shown.y) * scaleY)
    }

    /// The base pixel position of `anchor` of the visible area.
    public func anchorPoint(_ anchor: Anchor) -> Point {
        let u = anchor.unitPoint
        let visible = visibleAreaInBase
        return Point(x: baseSize.width / 2 + (u.x - 0.5) * visible.width,
                     y: baseSize.height / 2 + (u.y - 0.5) * visible.height)
    }

    /// Where a layer of `layerSize` frame units goes: its `anchor` point on the visible area's
    /// `anchor` point, moved by `offset` frame units; the placement's origin is the layer's top-left
    /// corner in base pixels and its scale converts frame units to base pixels.
    public func placement(layerSize: Size, anchor: Anchor, offset: Point) -> Placement {
        let u = anchor.unitPoint
        let target = anchorPoint(anchor)
        let origin = Point(x: target.x + (offset.x - u.x * layerSize.width) * scaleX,
                           y: target.y + (offset.y - u.y * layerSize.height) * scaleY)
        return Placement(origin: origin, scaleX: scaleX, scaleY: scaleY)
    }

    /// How far a layer of `layerSize` frame units, placed by `placement` and turned by `rotation`
    /// degrees about its centre, reaches beyond the visible image on each side, in base pixels
    /// (only the sides it passes by more than half a pixel; empty when it lies wholly on the image).
    /// That part is cut from the result: a frame whose shape differs from the image's (a landscape
    /// preview for a portrait photo) leaves room beside the image that the image does not have.
    public func overhang(layerSize: Size, placement: Placement, rotation: Double = 0) -> [(side: String, pixels: Double)] {
        let w = layerSize.width * placement.scaleX, h = layerSize.height * placement.scaleY
        let centre = Point(x: placement.origin.x + w / 2, y: placement.origin.y + h / 2)
        let radians = rotation * .pi / 180
        let (c, s) = (abs(cos(radians)), abs(sin(radians)))
        let halfW = (w * c + h * s) / 2, halfH = (w * s + h * c) / 2
        let area = visibleAreaInBase
        let sides = [("left", area.x - (centre.x - halfW)), ("right", centre.x + halfW - (area.x + area.width)),
                     ("top", area.y - (centre.y - halfH)), ("bottom", centre.y + halfH - (area.y + area.height))]
        return sides.filter { $0.1 > 0.5 }.map { (side: $0.0, pixels: $0.1) }
    }

    /// The warning for a layer that reaches beyond the visible image (nil when it does not): the
    /// sides and by how much, and, when the frame's shape differs from the image's, that a frame of
    /// the image's shape places it as a preview of the image would.
    public func cutWarning(layerSize: Size, placement: Placement) -> String? {
        let cut = overhang(layerSize: layerSize, placement: placement, rotation: placement.rotation)
        guard !cut.isEmpty else { return nil }
        func whole(_ v: Double) -> Int { Int(v.rounded()) }
        let sides = cut.map { "\($0.side) by \(whole($0.pixels)) px" }.joined(separator: ", ")
        let shown = visibleArea
        let shape = abs(shown.width - frame.width) > 0.5 || abs(shown.height - frame.height) > 0.5
            ? "; the \(whole(frame.width))x\(whole(frame.height)) frame shows the \(whole(baseSize.width))x\(whole(baseSize.height)) "
              + "image as \(whole(shown.width))x\(whole(shown.height)): a frame of the image's shape (a side of 0 follows it) "
              + "leaves no room beside the image"
            : ""
        return "parameter \"frame\": the layer reaches beyond the image (\(sides)), and that part is cut\(shape)"
    }
}
