/// Rows `rows` of an image, read-only, as a stage's band body sees them: each row is checked once
/// against the band, never per pixel. The rows live in a stream's ring (`RowStream.mapBands`) or in
/// a block of rows a plugin host handed over.
public struct RowBand {
    /// The image's width in pixels (a row is `width * 4` bytes of premultiplied RGBA).
    public let width: Int
    /// The image rows in the band (empty when the band reads no input row).
    public let rows: Range<Int>
    private let storage: RowStorage

    init(_ storage: RowStorage, width: Int, rows: Range<Int>) {
        self.storage = storage
        self.width = width
        self.rows = rows
    }

    /// The band over `rows` consecutive rows at `base`, `stride` bytes apart (a plugin's band:
    /// `base` is row `rows.lowerBound`).
    package init(base: UnsafePointer<UInt8>, stride: Int, width: Int, rows: Range<Int>) {
        self.init(RowStorage(block: UnsafeMutablePointer(mutating: base), stride: stride, first: rows.lowerBound),
                  width: width, rows: rows)
    }

    /// Image row `y`, which must lie in `rows`.
    public func row(_ y: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.row(y, of: rows), count: width * 4)
    }

    /// The band as one block of rows (`base` is the first row's, `stride` bytes between rows), when
    /// its rows are consecutive in memory (`RowStream.mapBlocks`); nil for an empty band or one that
    /// wraps around its ring.
    package var block: (base: UnsafePointer<UInt8>, stride: Int)? {
        guard let base = storage.block(rows) else { return nil }
        return (UnsafePointer(base), storage.stride)
    }
}
