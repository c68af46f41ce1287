import SumiKit

/// The streamed path of the stages that move whole rows (`crop`, a horizontal `flip`): each kept
/// source row becomes one output row through a per-row function, band by band.
enum RowCopy {
    static let band = 16

    /// Copies source rows `rows` of `input` to rows 0… of `output` (begun by the caller) through
    /// `body(source, destination)`; rows above are read and released unseen, rows below are left to
    /// the engine to drain.
    static func run(_ input: RowStream, rows: Range<Int>, into output: RowStream,
                    _ body: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Void) throws {
        var y = 0
        while y < rows.lowerBound {
            let end = min(rows.lowerBound, y + band)
            _ = try input.waitForRows(through: end)
            input.release(through: end)
            y = end
        }
        while y < rows.upperBound {
            let end = min(rows.upperBound, y + band)
            let first = y - rows.lowerBound, last = end - rows.lowerBound
            _ = try input.waitForRows(through: end)
            try output.reserve(through: last)
            for row in y..<end { body(UnsafePointer(input.row(row)), output.row(row - y + first)) }
            input.release(through: end)
            output.publish(through: last)
            y = end
        }
    }
}
