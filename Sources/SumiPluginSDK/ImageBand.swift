import SumiKit

/// Some consecutive rows of an image, read-only: rows `firstRow ..< firstRow + rowCount`, each
/// `width` RGBA pixels (`width * 4` bytes, premultiplied). Index rows from 0 within the band.
/// A view of a `RowBand`, checked per row.
public struct ImageBand {
    private let band: RowBand

    init(_ band: RowBand) { self.band = band }

    /// The image's width in pixels.
    public var width: Int { band.width }
    /// The image row of the band's first row.
    public var firstRow: Int { band.rows.lowerBound }
    /// The number of rows in the band (at least 1).
    public var rowCount: Int { band.rows.count }

    /// The band's rows, `0 ..< rowCount`.
    public var rowIndices: Range<Int> { 0..<rowCount }

    /// Row `index` of the band (image row `firstRow + index`): `width * 4` bytes, R, G, B, A.
    public subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < rowCount, "row \(index) is outside the band's \(rowCount) rows")
        return band.row(firstRow + index)
    }
}
