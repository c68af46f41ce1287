#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SumiKit

/// Buffered output to a file descriptor that counts the bytes written, for the cross-reference table.
final class PDFByteSink: ByteOutput {
    let fd: Int32
    /// The output's name for error messages.
    let path: String
    /// Bytes written so far (including what is still buffered).
    private(set) var offset = 0
    private var buffer: [UInt8] = []
    private let capacity = 1 << 18

    init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
        buffer.reserveCapacity(capacity)
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { (b) throws in try write(b) }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        offset += bytes.count
        if buffer.count + bytes.count <= capacity {
            buffer.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count >= capacity {
            try writeOut(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Writes out what is buffered.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBufferPointer { (b) throws in try writeOut(b) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw StageError("\(path): cannot write: \(FileIO.errorText(errno))")
            }
            done += n
        }
    }
}
