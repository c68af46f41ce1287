/// Where compressed bytes go: the file, or memory until their turn comes.
protocol ByteOutput: AnyObject {
    /// Bytes written so far.
    var offset: Int { get }
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws
    func write(_ bytes: [UInt8]) throws
}

/// Compressed bytes held in memory.
final class ByteCollector: ByteOutput {
    private(set) var bytes: [UInt8] = []
    var offset: Int { bytes.count }
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws { self.bytes.append(contentsOf: bytes) }
    func write(_ bytes: [UInt8]) throws { self.bytes.append(contentsOf: bytes) }
}
