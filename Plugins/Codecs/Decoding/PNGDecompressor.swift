import CSumiCodecs
import SumiKit

/// Owns one libpng read (through the C shim) over bytes that outlive it; freed in `deinit`.
final class PNGDecompressor {
    private let handle: OpaquePointer
    private let name: String

    /// `verified`: these bytes were decoded before without error, so their checksums are not
    /// computed again.
    init(_ data: UnsafeBufferPointer<UInt8>, name: String, verified: Bool = false) throws(StageError) {
        guard let base = data.baseAddress, let handle = sumi_png_decoder_create(base, data.count, verified ? 1 : 0) else {
            throw StageError("\(name): out of memory")
        }
        self.handle = handle
        self.name = name
    }

    deinit { sumi_png_decoder_destroy(handle) }

    private func failure() -> StageError {
        let message = String(cString: sumi_png_decoder_error(handle))
        return StageError("\(name): " + DecoderMessage.text(message, format: "PNG"))
    }

    /// The size and whether the image can be transparent, from the chunks before the image data;
    /// a size outside `limits` is refused here, before libpng allocates anything for the rows.
    func readHeader(limits: PixelLimits) throws(StageError) -> (header: ImageHeader, hasAlpha: Bool) {
        var width: Int32 = 0, height: Int32 = 0, alpha: Int32 = 0
        switch sumi_png_decoder_read_header(handle, Int64(limits.maxPixels), Int64(limits.maxWidth), &width, &height, &alpha) {
        case 0:
            return (ImageHeader(width: Int(width), height: Int(height)), alpha != 0)
        case -2:
            let header = ImageHeader(width: Int(UInt32(bitPattern: width)), height: Int(UInt32(bitPattern: height)))
            try header.check(name: name, format: .png, limits: limits)
            throw StageError.limit("\(name): image is \(header.width)x\(header.height), more than this run allows")
        default:
            throw failure()
        }
    }

    /// What libpng ignored and warned of (a tRNS before PLTE), as one line; nil when nothing.
    var warnings: String? {
        let text = String(cString: sumi_png_decoder_warnings(handle))
        return text.isEmpty ? nil : "\(name): libpng ignored what it could not use: \(text)"
    }

    /// Whether the rows come in interlaced passes (then they cannot be streamed in order).
    var isInterlaced: Bool { sumi_png_decoder_is_interlaced(handle) != 0 }

    /// Decodes every row into `out` (`width` × `height` × 4 bytes), premultiplied: the row loop
    /// of `decode(into: RowStream)` over a ring as tall as the image.
    func decode(into out: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int) throws(StageError) {
        guard let base = out.baseAddress else { throw StageError("\(name): empty PNG image") }
        var ring = sumi_whole_ring(base, width * 4, Int32(height), Int32(height))
        guard sumi_png_decoder_decode_ring(handle, &ring) == 0 else { throw failure() }
    }

    /// Decodes a non-interlaced image row by row into `stream` (begun at its size).
    func decode(into stream: RowStream) throws(StageError) {
        let status = RingAccess.withRing(stream, as: .producer) { sumi_png_decoder_decode_ring(handle, $0) }
        guard status == 0 else { throw failure() }
    }
}
