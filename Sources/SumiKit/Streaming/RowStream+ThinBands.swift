/// Bands of tall thin images: a band of rows of a 1×100,000,000 image would be a few pixels, and
/// every pixel would pay a lock round between threads. The streams the engine makes, and the stages
/// that take such an image in bands, count a band in pixels instead — for images taller than
/// `tallRows` only, so the rings of ordinary images keep their size.
extension RowStream {
    /// The fewest pixels a band of a tall image holds in a stream the engine makes.
    public static let thinBandPixels = 1 << 16
    /// The height above which an image's bands are counted in pixels.
    public static let tallRows = 1 << 16

    /// The rows a band of a `width × height` image needs to hold `pixels` pixels when the image is
    /// taller than `tallRows`; 0 for any other image (its bands are counted in rows).
    public static func bandRows(width: Int, height: Int, pixels: Int = thinBandPixels) -> Int {
        guard pixels > 0, height > tallRows, width > 0 else { return 0 }
        return pixels / width
    }
}
