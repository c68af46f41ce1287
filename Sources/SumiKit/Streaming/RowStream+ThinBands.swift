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

extension RowStream {
    /// The bytes of rows a band of a narrow image holds (see `band(rowBytes:)`).
    public static let bandBytes = 256 * 1024

    /// The rows of a band a stage waits for or hands on at a time for rows of `rowBytes` bytes:
    /// about `bandBytes` of rows, in whole 16-row steps (a JPEG iMCU row at 4:2:0), at least 16 and
    /// at most `capacity`. Wide rows keep 16-row bands, still in cache when the next stage reads
    /// them; narrow ones change hands in taller bands, each of which wakes the other side's thread
    /// once (a 750-pixel-wide band of 48 rows, not 16: a thumbnail request's context switches fell
    /// by a third). The C shims' `sumi_ring_band` is the same rule.
    public func band(rowBytes: Int) -> Int {
        let fit = rowBytes > 0 ? Self.bandBytes / rowBytes / 16 * 16 : 16
        return max(1, min(capacity, max(16, fit)))
    }
}
