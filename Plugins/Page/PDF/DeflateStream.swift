import CZlib
import SumiKit

/// A zlib (RFC 1950) compressor that owns its `z_stream` and frees it in `deinit`.
///
/// Input goes in by pieces; compressed output is handed to a callback as it is produced, so nothing
/// larger than one output chunk is ever held.
final class DeflateStream {
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8]
    private var finished = false

    /// A compressor at zlib `level` (0–9).
    init(level: Int32, chunkSize: Int = 1 << 18) throws(StageError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = [UInt8](repeating: 0, count: chunkSize)
        let status = deflateInit_(stream, level, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw StageError("zlib: cannot start compressing (error \(status))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`; when `finish` is set, also flushes the end of the stream.
    func compress(_ input: UnsafeBufferPointer<UInt8>, finish: Bool = false,
                  into sink: (UnsafeBufferPointer<UInt8>) throws(StageError) -> Void) throws(StageError) {
        guard !finished else { throw StageError("zlib: stream already finished") }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.pointee.avail_in = UInt32(input.count)
        let mode = finish ? Z_FINISH : Z_NO_FLUSH
        let capacity = output.count
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(capacity)
                let status = deflate(stream, mode)
                return (status, capacity - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw StageError("zlib: compression failed (error \(status))")
            }
            if produced > 0 {
                try output.withUnsafeBufferPointer { (out) throws(StageError) in
                    try sink(UnsafeBufferPointer(rebasing: out[0..<produced]))
                }
            }
            if status == Z_STREAM_END {
                finished = true
                break
            }
            // More output is pending while the output buffer came back full.
            if stream.pointee.avail_out != 0 && stream.pointee.avail_in == 0 && !finish { break }
            if status == Z_BUF_ERROR && produced == 0 { break }
        }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
    }
}
