/// Where a band's rows are: row `y` at `base + ((y - first) % slots) * stride` — a stream's ring
/// (`first` 0, `slots` its rows) or one block of rows (`slots` unbounded). The one address
/// computation behind `RowBand` and `MutableRowBand`.
struct RowStorage {
    let base: UnsafeMutablePointer<UInt8>
    let stride: Int
    let first: Int
    let slots: Int

    /// The ring of `stream` (begun).
    init(_ stream: RowStream) {
        let ring = stream.ring
        base = ring.base
        stride = ring.stride
        first = 0
        slots = ring.rows
    }

    init(block: UnsafeMutablePointer<UInt8>, stride: Int, first: Int) {
        base = block
        self.stride = stride
        self.first = first
        slots = Int.max
    }

    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + ((y - first) % slots) * stride }

    /// Row `y` of a band over `rows`, which must contain it: the one bounds check a band view makes
    /// (per row, never per pixel).
    func row(_ y: Int, of rows: Range<Int>) -> UnsafeMutablePointer<UInt8> {
        precondition(rows.contains(y), "row \(y) is outside the band's rows \(rows)")
        return row(y)
    }

    /// The first row of `rows` when they are consecutive in memory (they do not wrap around).
    func block(_ rows: Range<Int>) -> UnsafeMutablePointer<UInt8>? {
        guard let last = rows.last else { return nil }
        let start = (rows.lowerBound - first) % slots
        return start + (last - rows.lowerBound) < slots ? base + start * stride : nil
    }
}
