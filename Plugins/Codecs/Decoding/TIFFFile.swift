import CSumiCodecs
import SumiKit

/// Owns one libtiff read (through the C shim) of bytes that outlive it; closed in `deinit`.
final class TIFFFile {
    private let handle: OpaquePointer
    private let name: String

    /// `maxAllocation` bounds any one buffer the file may make libtiff or the decoder allocate.
    init(_ data: UnsafeBufferPointer<UInt8>, name: String, maxAllocation: Int) throws(StageError) {
        guard let base = data.baseAddress, let handle = sumi_tiff_open(base, data.count, Int64(maxAllocation)) else {
            throw StageError("\(name): out of memory")
        }
        self.handle = handle
        self.name = name
    }

    deinit { sumi_tiff_close(handle) }

    /// The first directory's layout; a file libtiff cannot open or a layout Sumi does not read fails
    /// here.
    func info() throws(StageError) -> sumi_tiff_info {
        var info = sumi_tiff_info()
        guard sumi_tiff_read_info(handle, &info) == 0 else { throw failure() }
        return info
    }

    /// Decodes into `out` (the oriented size × 4 bytes) with `orientation` applied.
    func decode(into out: UnsafeMutableBufferPointer<UInt8>, orientation: Int) throws(StageError) {
        guard let base = out.baseAddress, sumi_tiff_decode(handle, base, Int32(orientation)) == 0 else { throw failure() }
    }

    /// Decodes upright rows into `stream` (begun at the stored size) as the strips are read; the
    /// layout must not be `whole_only` unless the stream is as tall as the image.
    func decode(into stream: RowStream) throws(StageError) {
        let status = RingAccess.withRing(stream, as: .producer) { sumi_tiff_decode_ring(handle, $0) }
        guard status == 0 else { throw failure() }
    }

    private func failure() -> StageError {
        StageError("\(name): \(DecoderMessage.text(String(cString: sumi_tiff_error(handle)), format: "TIFF"))")
    }
}
