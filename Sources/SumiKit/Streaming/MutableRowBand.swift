/// Rows `rows` of the output image, to be written: every byte of every row. The counterpart of
/// `RowBand`, checked the same way (per row, never per pixel).
public struct MutableRowBand {
    /// The image's width in pixels (a row is `width * 4` bytes of premultiplied RGBA).
    public let width: Int
    /// The image rows in the band.
    public let rows: Range<Int>
    private let storage: RowStorage

    init(_ storage: RowStorage, width: Int, rows: Range<Int>) {
        self.storage = storage
        self.width = width
        self.rows = rows
    }

    /// The band over `rows` consecutive rows at `base`, `stride` bytes apart (a plugin's band:
    /// `base` is row `rows.lowerBound`).
    package init(base: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, rows: Range<Int>) {
        self.init(RowStorage(block: base, stride: stride, first: rows.lowerBound), width: width, rows: rows)
    }

    /// Image row `y`, which must lie in `rows`.
    public func row(_ y: Int) -> UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: storage.row(y, of: rows), count: width * 4)
    }

    /// The band as one block of rows, when its rows are consecutive in memory (see `RowBand.block`).
    package var block: (base: UnsafeMutablePointer<UInt8>, stride: Int)? {
        storage.block(rows).map { ($0, storage.stride) }
    }
}
