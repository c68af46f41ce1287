import SumiCodecs

/// The HEIF/AVIF decoder (libheif) on any bytes (an `ftyp` box put in front when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeHeif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63])
}
