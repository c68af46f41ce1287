/// The rectangles of stitched captures, in pixels of this image (top-left origin), in capture
/// order. Moved, scaled, mirrored and clipped with the geometry; a capture that leaves the image
/// (or whose image is no longer a rectangle, after a free rotation) becomes nil, so `capture:N`
/// keeps its number and is refused with a clear message instead of pointing at other pixels. An
/// undescribed change makes every rectangle unknown.
public enum CaptureRectangles: SideDataKind {
    public typealias Value = [Rect?]
    public static let name = "capture-rects"
    public static func transform(_ rects: [Rect?], by change: ImageChange) -> [Rect?]? {
        switch change {
        case .pixels: rects
        case .geometry(let t): rects.map { $0.flatMap(t.apply) }
        case .unknown: rects.map { _ in nil }
        }
    }
}
