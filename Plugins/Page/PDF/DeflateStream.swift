import CSumiCodecs
import SumiCodecs
import SumiKit

/// A raw deflate (RFC 1951) compressor that owns its `z_stream` and frees it in `deinit`.
///
/// Input goes in by pieces; compressed output is handed to a sink as it is produced, so nothing
/// larger than one output chunk is held. `FlateParts` makes a zlib stream of the raw one. (Image
/// rows go through the codecs' filtered deflate instead, `FilteredFlate`.)
final class DeflateStream {
    /// How a call to `compress` ends.
    enum Flush: Sendable {
        /// Keep compressing with the next call.
        case none
        /// End the deflate stream.
        case finish

        var zlibValue: Int32 {
            switch self {
            case .none: Z_NO_FLUSH
            case .finish: Z_FINISH
            }
        }
    }

    private let stream: UnsafeMutablePointer<z_stream>
    /// zlib's functions (the library is opened by the first compressor).
    private let z: sumi_zlib_api
    private var output: [UInt8]
    private var finished = false

    /// A compressor at zlib `level` (0–9).
    init(level: Int32, chunkSize: Int = 1 << 17) throws {
        z = try ZlibLibrary.require()
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = [UInt8](repeating: 0, count: chunkSize)
        let status = z.deflateInit2_(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
                                     ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw StageError("zlib: cannot start compressing (error \(status))")
        }
    }

    deinit {
        _ = z.deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `input`, ending as `flush` says.
    func compress(_ input: [UInt8], flush: Flush = .none, into sink: any ByteOutput) throws {
        try input.withUnsafeBufferPointer { try compress($0, flush: flush, into: sink) }
    }

    func compress(_ input: UnsafeBufferPointer<UInt8>, flush: Flush, into sink: any ByteOutput) throws {
        guard !finished else { throw StageError("zlib: stream already finished") }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.pointee.avail_in = UInt32(input.count)
        let mode = flush.zlibValue
        let capacity = output.count
        while true {
            let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(capacity)
                let status = z.deflate(stream, mode)
                return (status, capacity - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw StageError("zlib: compression failed (error \(status))")
            }
            if produced > 0 {
                try output.withUnsafeBufferPointer { out in
                    try sink.write(UnsafeBufferPointer(rebasing: out[0..<produced]))
                }
            }
            if status == Z_STREAM_END {
                finished = true
                break
            }
            // Done when zlib left room in the output: everything asked for has been produced.
            if produced < capacity { break }
        }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
    }

    /// The Adler-32 checksum of `bytes`, continuing from `adler` (start with 1).
    static func adler32(_ adler: UInt32, _ bytes: [UInt8]) throws -> UInt32 {
        let z = try ZlibLibrary.require()
        return bytes.withUnsafeBufferPointer { UInt32(z.adler32_z(UInt(adler), $0.baseAddress, $0.count)) }
    }

    /// The Adler-32 of two pieces joined, from each one's checksum and the second's length.
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) throws -> UInt32 {
        UInt32(try ZlibLibrary.require().adler32_combine(UInt(first), UInt(second), secondLength))
    }
}
