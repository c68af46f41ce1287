import CSumiCodecs
import SumiKit

/// Owns one libjpeg-turbo decompression (through the C shim) over bytes that outlive it.
/// Use it inside `withUnsafeBufferPointer` of those bytes; it is freed in `deinit`.
final class JPEGDecompressor {
    private let handle: OpaquePointer
    private let name: String

    /// `strict`: damaged entropy data is an error rather than a warning (see `warning`).
    init(_ data: UnsafeBufferPointer<UInt8>, name: String, strict: Bool = false) throws(StageError) {
        guard let base = data.baseAddress, let handle = sumi_jpeg_decoder_create(base, data.count) else {
            throw StageError("\(name): out of memory")
        }
        sumi_jpeg_decoder_set_strict(handle, strict ? 1 : 0)
        self.handle = handle
        self.name = name
    }

    /// After a decode that was not strict: what libjpeg found damaged (some pixels are then grey,
    /// as djpeg and Pillow give them), as the warning a run shows; nil when the data was whole.
    var warning: String? {
        let text = String(cString: sumi_jpeg_decoder_warning(handle))
        guard !text.isEmpty else { return nil }
        return "\(name): damaged JPEG data (\(DecoderMessage.text(text, format: "JPEG"))): decoded as libjpeg reads it, "
            + "what is missing grey (decode strict=true refuses such a file)"
    }

    deinit { sumi_jpeg_decoder_destroy(handle) }

    private func failure() -> StageError {
        let message = String(cString: sumi_jpeg_decoder_error(handle))
        return StageError("\(name): " + DecoderMessage.text(message, format: "JPEG"))
    }

    /// The stored size, from the header only.
    func readHeader() throws(StageError) -> ImageHeader {
        var width: Int32 = 0, height: Int32 = 0, components: Int32 = 0
        guard sumi_jpeg_decoder_read_header(handle, &width, &height, &components) == 0 else { throw failure() }
        return ImageHeader(width: Int(width), height: Int(height))
    }

    /// Selects DCT scaling by `eighths`/8 and returns the stored output size.
    func setScale(eighths: Int) throws(StageError) -> ImageHeader {
        var width: Int32 = 0, height: Int32 = 0
        guard sumi_jpeg_decoder_set_scale(handle, Int32(eighths), &width, &height) == 0 else { throw failure() }
        return ImageHeader(width: Int(width), height: Int(height))
    }

    /// Decodes upright rows into `stream` (begun at the output size), band by band as it makes room.
    func decode(into stream: RowStream) throws(StageError) {
        let status = RingAccess.withRing(stream, as: .producer) { sumi_jpeg_decoder_decode_ring(handle, $0) }
        guard status == 0 else { throw failure() }
    }

    /// Decodes into `out` (the output size × 4 bytes), applying `orientation` in the same pass.
    func decode(into out: UnsafeMutableBufferPointer<UInt8>, orientation: Int) throws(StageError) {
        guard let base = out.baseAddress else { throw StageError("\(name): empty JPEG image") }
        guard sumi_jpeg_decoder_decode(handle, base, Int32(orientation)) == 0 else { throw failure() }
    }
}
