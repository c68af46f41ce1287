import CSumiCodecs
import SumiKit

/// Owns one giflib read (through the C shim) of bytes that outlive it; closed in `deinit`.
final class GIFFile {
    private let handle: OpaquePointer
    private let name: String

    init(_ data: UnsafeBufferPointer<UInt8>, name: String) throws(StageError) {
        guard let base = data.baseAddress, let handle = sumi_gif_open(base, data.count) else {
            throw StageError("\(name): out of memory")
        }
        self.handle = handle
        self.name = name
    }

    deinit { sumi_gif_close(handle) }

    /// The first frame's place and the canvas size, read before any pixel.
    func firstFrame() throws(StageError) -> sumi_gif_frame {
        var frame = sumi_gif_frame()
        guard sumi_gif_read_frame(handle, &frame) == 0 else { throw failure() }
        return frame
    }

    /// Decodes the first frame's canvas into `stream` (begun at the canvas size) in its bands.
    func decode(into stream: RowStream) throws(StageError) {
        let status = RingAccess.withRing(stream, as: .producer) { sumi_gif_decode_ring(handle, $0) }
        guard status == 0 else { throw failure() }
    }

    /// The frames' places up to frame `wanted` (or all of them when the file has fewer), read from
    /// their descriptors without decoding; on a fresh file.
    func layout(upTo wanted: Int) throws(StageError) -> sumi_gif_layout {
        var layout = sumi_gif_layout()
        guard sumi_gif_scan(handle, Int32(clamping: wanted), &layout) == 0 else { throw failure() }
        return layout
    }

    /// Frame `wanted` composited on the canvas `layout` gave, into `pixels` (its premultiplied
    /// RGBA); on a fresh file. Returns whether no pixel can be clear.
    func compose(frame wanted: Int, layout: sumi_gif_layout, into pixels: UnsafeMutableBufferPointer<UInt8>) throws(StageError) -> Bool {
        guard let base = pixels.baseAddress else { throw StageError("\(name): empty GIF canvas") }
        var opaque: Int32 = 0
        guard sumi_gif_compose(handle, Int32(clamping: wanted), layout.canvas_width, layout.canvas_height, base, &opaque) == 0 else {
            throw failure()
        }
        return opaque != 0
    }

    private func failure() -> StageError {
        StageError("\(name): \(DecoderMessage.text(String(cString: sumi_gif_error(handle)), format: "GIF"))")
    }
}
