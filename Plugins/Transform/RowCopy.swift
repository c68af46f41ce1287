import SumiKit

/// The row path of the stages that move whole rows (`crop`, a horizontal `flip`, a `scale` that
/// changes nothing): each kept source row becomes one output row through a per-row function.
enum RowCopy {
    /// Copies source rows `rows` of `input` to rows 0… of `output` (begun by the caller) through
    /// `body(source, destination)`, band by band (`RowStream.mapBands`).
    static func run(_ input: RowStream, rows: Range<Int>, into output: RowStream,
                    _ body: (UnsafeBufferPointer<UInt8>, UnsafeMutableBufferPointer<UInt8>) -> Void) throws {
        try output.mapBands(from: input, inputRows: { $0.lowerBound + rows.lowerBound ..< $0.upperBound + rows.lowerBound }) { source, target in
            for y in target.rows { body(source.row(y + rows.lowerBound), target.row(y)) }
        }
    }
}
