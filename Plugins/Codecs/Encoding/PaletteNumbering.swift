import CSumiCodecs
import SumiKit

/// The palette of an image that arrives row by row: each row's pixels numbered in order of first
/// appearance, as `IndexedImage` numbers a whole image's (the same C table), until the 257th
/// distinct pixel. For a page compressed as its rows come (`pdf-page`), which must keep the palette
/// form possible while it lasts.
public final class PaletteNumbering {
    private let handle: OpaquePointer

    public init() throws {
        guard let handle = sumi_palette_create() else { throw StageError("out of memory while looking for a palette") }
        self.handle = handle
    }

    deinit { sumi_palette_destroy(handle) }

    /// Numbers `row` (premultiplied RGBA, `indices.count` pixels) into `indices`; false at the
    /// 257th distinct pixel (the indices are then unusable).
    public func number(_ row: UnsafeBufferPointer<UInt8>, into indices: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        precondition(row.count >= indices.count * 4)
        return sumi_palette_number_row(handle, row.baseAddress, Int32(indices.count), indices.baseAddress) == 0
    }

    /// Distinct pixels so far.
    public var count: Int { Int(sumi_palette_count(handle)) }

    /// The distinct pixels so far, premultiplied RGBA (4 bytes each), in order of first appearance.
    public var entries: [UInt8] {
        let n = count
        guard n > 0, let keys = sumi_palette_keys(handle) else { return [] }
        return (0..<n).flatMap { i in (0..<4).map { UInt8(truncatingIfNeeded: keys[i] >> (8 * $0)) } }
    }
}
