import CSumiCodecs
import SumiKit

/// A Flate image's rows as one zlib stream of PNG-predicted rows (`/Predictor 15`), through the
/// codecs' filtered deflate (`sumi_flate.h`, which the PNG writer uses too): each row filtered by
/// libpng's heuristic, or None/Up by runs for palette indices, and the zlib strategy chosen per
/// band of 16 rows. Rows go in one at a time; the stream comes out at `finish`.
final class FilteredFlate {
    /// The filter types tried for each row, in the order that breaks ties: Up first (on flat
    /// screenshots its sum is often exactly zero, which ends the search), then Sub, Paeth, Average
    /// and None.
    static let filterOrder: (UInt8, UInt8, UInt8, UInt8, UInt8) = (2, 1, 4, 3, 0)

    /// The zlib level of `Z_FILTERED` bands at most: with that strategy deflate drops short matches
    /// and so searches its hash chains at nearly every byte of photo-like residuals; level 4's
    /// chains (16 long, against level 6's 128) cut the photo page's CPU by a fifth for 4 % more
    /// bytes on the page (measured on the 50-capture photo page, `compression: flate`: 10.1 s
    /// against 12.9 s of CPU, 24.9 MB against 24.0 MB; 0.2 wrote 27.2 MB in 10.5–11.5 s).
    static let filteredLevel: Int32 = 4

    /// What the compressor has handed over so far.
    private final class Collected {
        var bytes: [UInt8] = []
    }

    private let rows: OpaquePointer
    private let collected = Collected()
    /// Bytes in a row, without its filter-type byte.
    let rowLength: Int

    /// A stream of rows of `rowLength` bytes, `bytesPerPixel` bytes a pixel, at zlib `level`;
    /// `indices` for palette indices (or packed samples).
    init(rowLength: Int, bytesPerPixel: Int, level: Int32, indices: Bool) throws {
        self.rowLength = rowLength
        var options = sumi_flate_options()
        options.row_bytes = rowLength
        options.bytes_per_pixel = bytesPerPixel
        options.level = level
        options.filtered_level = Self.filteredLevel
        options.filters = Self.filterOrder
        options.filter_count = 5
        options.indices = indices ? 1 : 0
        // The header of FlateParts' joined streams (78 9C), whatever the level.
        options.default_header = 1
        let context = Unmanaged.passUnretained(collected).toOpaque()
        var message = [CChar](repeating: 0, count: 256)
        let made = message.withUnsafeMutableBufferPointer { error in
            sumi_flate_rows_begin(&options, { context, bytes, length in
                guard let context, let bytes else { return length == 0 ? 0 : -1 }
                Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().bytes
                    .append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
                return 0
            }, context, error.baseAddress, error.count)
        }
        guard let made else { throw StageError(Self.text(message), cause: .io) }
        rows = made
    }

    deinit { sumi_flate_rows_free(rows) }

    /// Filters and compresses one row of `rowLength` samples.
    func add(_ samples: UnsafeBufferPointer<UInt8>) throws {
        precondition(samples.count >= rowLength)
        try call { sumi_flate_rows_add(rows, samples.baseAddress, $0, $1) }
    }

    /// Compresses one row already filtered: its filter type, then `rowLength` bytes.
    func addFiltered(_ row: UnsafeBufferPointer<UInt8>) throws {
        precondition(row.count >= rowLength + 1)
        try call { sumi_flate_rows_add_filtered(rows, row.baseAddress, $0, $1) }
    }

    /// Ends the stream and hands it over.
    func finish() throws -> [UInt8] {
        try call { sumi_flate_rows_finish(rows, $0, $1) }
        defer { collected.bytes = [] }
        return collected.bytes
    }

    private func call(_ body: (UnsafeMutablePointer<CChar>?, Int) -> Int32) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { body($0.baseAddress, $0.count) }
        guard status == 0 else { throw StageError(Self.text(message)) }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
