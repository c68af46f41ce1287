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
    /// A row outside the band stops the program (the one check, made by the band view).
    public subscript(index: Int) -> UnsafeMutableBufferPointer<UInt8> {
        band.row(firstRow + index)
    }
}
