import CSumiCodecs
import SumiCodecs
import SumiKit

/// A raw deflate (RFC 1951) compressor that owns its `z_stream` and frees it in `deinit`.
///
/// Input goes in by pieces; compressed output is handed to a callback as it is produced, so nothing
/// larger than one output chunk is held. Raw streams can be compressed in parts and joined: every part
/// but the last ends with a sync flush, and each later part is primed with the end of the data before
/// it (`setDictionary`). `ZlibFraming` turns the joined parts into a zlib stream.
final class DeflateStream {
    /// How a call to `compress` ends.
    enum Flush: Sendable {
        /// Keep compressing with the next call.
        case none
        /// Byte-align the output and end the part (more parts follow).
        case sync
        /// End the current deflate block (before a change of strategy).
        case block
        /// End the deflate stream.
        case finish

        var zlibValue: Int32 {
            switch self {
            case .none: Z_NO_FLUSH
            case .sync: Z_SYNC_FLUSH
            case .block: Z_BLOCK
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

    /// Primes the compressor with data that came before (up to 32 KiB are used).
    func setDictionary(_ bytes: [UInt8]) throws {
        let status = bytes.withUnsafeBufferPointer { z.deflateSetDictionary(stream, $0.baseAddress, UInt32($0.count)) }
        guard status == Z_OK else { throw StageError("zlib: cannot set the dictionary (error \(status))") }
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

    /// Compresses what follows with `strategy` (`Z_FILTERED` or `Z_DEFAULT_STRATEGY`) at `level`;
    /// the data given so far is compressed first, into `sink`.
    func setStrategy(_ strategy: Int32, level: Int32, into sink: any ByteOutput) throws {
        try compress(UnsafeBufferPointer(start: nil, count: 0), flush: .block, into: sink)
        let capacity = output.count
        let (status, produced) = output.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
            stream.pointee.next_out = out.baseAddress
            stream.pointee.avail_out = UInt32(capacity)
            let status = z.deflateParams(stream, level, strategy)
            return (status, capacity - Int(stream.pointee.avail_out))
        }
        guard status == Z_OK else { throw StageError("zlib: cannot change the strategy (error \(status))") }
        if produced > 0 {
            try output.withUnsafeBufferPointer { try sink.write(UnsafeBufferPointer(rebasing: $0[0..<produced])) }
        }
    }

    /// The Adler-32 checksum of `bytes`, continuing from `adler` (start with 1); after a compressor
    /// was made (which opened zlib), as for every stream this checksums.
    static func adler32(_ adler: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { adler32(adler, $0) }
    }

    static func adler32(_ adler: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(ZlibLibrary.tables.adler32_z(UInt(adler), bytes.baseAddress, bytes.count))
    }

    /// The Adler-32 of two pieces joined, from each one's checksum and the second's length.
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(ZlibLibrary.tables.adler32_combine(UInt(first), UInt(second), secondLength))
    }
}
