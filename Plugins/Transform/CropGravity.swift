import SumiKit

/// Which part of an image a crop keeps (`crop size=… gravity=…`, `scale fit=cover gravity=…`): one of
/// `Gravity`'s nine anchors, or a content-aware choice that looks at the pixels first.
///
/// - `attention`: the window with the most to look at — edges, saturated colour and skin tones
///   (the measures libvips' smartcrop `attention` uses; see `InterestingRegion`).
/// - `entropy`: the window whose tones vary most, found by cutting the duller edge strip until
///   the size is reached (libvips' smartcrop `entropy`).
///
/// A content-aware choice needs the whole image before its first row can be given, so a stage
/// using one holds its input whole (see `InterestingRegion`).
public enum CropGravity: String, Sendable, CaseIterable, ParameterChoice {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    case attention, entropy

    /// The fixed anchor, or nil for a content-aware choice.
    public var anchor: Gravity? { Gravity(rawValue: rawValue) }

    /// The measure of a content-aware choice, or nil for an anchor.
    public var measure: InterestingRegion.Measure? {
        switch self {
        case .attention: .attention
        case .entropy: .entropy
        default: nil
        }
    }

    /// The top-left corner of an `inner`-sized window in `image` (which `outer`-sized sides are): an
    /// anchor's offset, or the content-aware choice's window.
    func offset(inner: (width: Int, height: Int), in image: Image) -> (x: Int, y: Int) {
        if let anchor { return anchor.offset(inner: inner, outer: (image.width, image.height)) }
        return InterestingRegion(image: image).window(width: inner.width, height: inner.height, measure: measure ?? .attention)
    }
}
