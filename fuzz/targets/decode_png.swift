import SumiCodecs

/// The png decoder on any bytes (the magic bytes put in front when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodePng(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
}
