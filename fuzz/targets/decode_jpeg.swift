import SumiCodecs

/// The jpeg decoder on any bytes (the magic bytes put in front when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeJpeg(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0xFF, 0xD8, 0xFF])
}
