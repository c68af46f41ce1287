import SumiKit

/// Some consecutive rows of the result image, to be written: the counterpart of `ImageBand`, with
/// the same `width`, `firstRow` and `rowCount`. Every byte of every row must be written.
public struct MutableImageBand {
    private let band: MutableRowBand

    init(_ band: MutableRowBand) { self.band = band }

    /// The image's width in pixels.
    public var width: Int { band.width }
    /// The image row of the band's first row.
    public var firstRow: Int { band.rows.lowerBound }
    /// The number of rows in the band (at least 1).
    public var rowCount: Int { band.rows.count }

    /// The band's rows, `0 ..< rowCount`.
    public var rowIndices: Range<Int> { 0..<rowCount }

    /// Row `index` of the band (image row `firstRow + index`): `width * 4` writable bytes.
    public subscript(index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        precondition(index >= 0 && index < rowCount, "row \(index) is outside the band's \(rowCount) rows")
        return band.row(firstRow + index)
    }
}
