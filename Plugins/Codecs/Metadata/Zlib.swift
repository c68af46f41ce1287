import CSumiCodecs
import SumiKit

/// zlib compression of metadata blocks (PNG `iCCP`, compressed `iTXt`) and the PNG chunk CRC.
enum Zlib {
    /// Inflates a zlib stream, refusing output larger than `limit` bytes; nil when corrupt,
    /// truncated or too large (or when zlib cannot be loaded).
    static func inflate(_ input: ArraySlice<UInt8>, limit: Int = 16 << 20) -> [UInt8]? {
        guard let z = try? ZlibLibrary.require() else { return nil }
        var stream = z_stream()
        guard z.inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { _ = z.inflateEnd(&stream) }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let input = Array(input)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return z.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output += chunk[..<produced]
                if output.count > limit { return nil }
                if status == Z_STREAM_END { return output }
                guard status == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }

    /// `input` as a zlib stream at the default level.
    static func deflate(_ input: [UInt8]) throws -> [UInt8] {
        let z = try ZlibLibrary.require()
        var size = z.compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(size))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { z.compress2(out.baseAddress, &size, $0.baseAddress, uLong($0.count), Z_DEFAULT_COMPRESSION) }
        }
        guard status == Z_OK else { return [] }
        return Array(output.prefix(Int(size)))
    }

    /// The CRC-32 of `bytes`.
    static func crc32(_ bytes: [UInt8]) throws -> UInt32 {
        let z = try ZlibLibrary.require()
        return UInt32(bytes.withUnsafeBufferPointer { z.crc32(0, $0.baseAddress, uInt($0.count)) })
    }
}
