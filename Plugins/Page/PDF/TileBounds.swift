/// The columns a run of photo rows could be JPEG over: what their photo spans and flat
/// surroundings (`RowContent.Measure`) have in common.
///
/// The tile reaches outwards to the strip grid's column at or before the leftmost photo column
/// (and at or after the rightmost) when that column lies in every row's flat surroundings, so no
/// photo pixel is left to a lossless tile beside it; otherwise it keeps inwards to the grid column
/// inside every row's photo. Either way each row's pixels inside the tile are its photo or the
/// flat colour beside it, never other detail.
struct TileBounds: Sendable, Equatable {
    private(set) var spanLower: ClosedRange<Int>
    private(set) var spanUpper: ClosedRange<Int>
    /// The rightmost start and leftmost end of the rows' flat surroundings.
    private(set) var clearLower: Int
    private(set) var clearUpper: Int

    init?(_ measure: RowContent.Measure) {
        guard let span = measure.span, let clear = measure.clear else { return nil }
        spanLower = span.lowerBound...span.lowerBound
        spanUpper = span.upperBound...span.upperBound
        clearLower = clear.lowerBound
        clearUpper = clear.upperBound
    }

    /// These bounds with one more row's.
    func adding(_ other: TileBounds) -> TileBounds {
        var b = self
        b.spanLower = min(spanLower.lowerBound, other.spanLower.lowerBound)...max(spanLower.upperBound, other.spanLower.upperBound)
        b.spanUpper = min(spanUpper.lowerBound, other.spanUpper.lowerBound)...max(spanUpper.upperBound, other.spanUpper.upperBound)
        b.clearLower = max(clearLower, other.clearLower)
        b.clearUpper = min(clearUpper, other.clearUpper)
        return b
    }

    /// The tile's columns on a page `width` wide whose grid is `alignment` columns, if it is
    /// `StripPlanner.minimumTileColumns` wide or more.
    func tile(alignment a: Int, width: Int) -> Range<Int>? {
        var lower = spanLower.lowerBound / a * a
        if lower < clearLower { lower = (spanLower.upperBound + a - 1) / a * a }
        var upper = min(width, (spanUpper.upperBound + a - 1) / a * a)
        // Flat to the page's edge, less than a grid step away: to the edge (no tile of margin).
        if clearUpper >= width && width - upper < a { upper = width }
        if upper > clearUpper { upper = spanUpper.lowerBound >= width ? width : spanUpper.lowerBound / a * a }
        return upper - lower >= StripPlanner.minimumTileColumns ? lower..<upper : nil
    }

    /// Whether a JPEG tile over `tile` may take this row: the tile lies in the row's flat
    /// surroundings and three quarters of it at least is the row's photo.
    func admits(_ tile: Range<Int>) -> Bool {
        guard clearLower <= tile.lowerBound && clearUpper >= tile.upperBound else { return false }
        let photo = min(tile.upperBound, spanUpper.lowerBound) - max(tile.lowerBound, spanLower.upperBound)
        return photo * 4 >= tile.count * 3
    }
}
