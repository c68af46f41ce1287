import SumiCodecs

/// The WebP decoder on any bytes (wrapped in a RIFF WEBP header when they have none).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeWebP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    var bytes = input.rest()
    if !(bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)) {
        let length = UInt32(truncatingIfNeeded: bytes.count + 4)
        bytes = Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) } + Array("WEBP".utf8) + bytes
    }
    return FuzzDecode.run(bytes, magic: [])
}
