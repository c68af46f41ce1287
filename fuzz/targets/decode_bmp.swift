import SumiCodecs

/// The bmp decoder — our BMP reader (BMPHeader, BMPDecoder, BMPRunLengthDecoder) — on any bytes (the magic bytes put in front when missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecodeBmp(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzDecode.run(data, size, magic: [0x42, 0x4D], streamed: true)
}
